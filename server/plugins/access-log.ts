// One access line per answered request on stdout, in pino's format, written once per turn of the
// event loop. Fastify runs without a logger of its own: the server's other lines go to its pino
// logger (`createLog`), which the app hands to whatever writes them.
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';

declare module 'fastify' {
  interface FastifyRequest {
    /** `performance.now()` when the request reached its route: the line's `ms` counts from it. */
    receivedAt: number;
  }
}

/** The server's log: pino, at LOG_LEVEL ('silent' writes nothing). */
export const createLog = (level: string): Logger => pino({ level });

/** The levels at which pino writes `info` lines. */
const INFO_LEVELS = new Set(['trace', 'debug', 'info']);

/**
 * Pino's own line cost 3-4 µs of a `/api/auth/me` answer, a sixth of it, in a `LOG_LEVEL=info`
 * server (the default): its generic serialising of the line. This line has fixed fields, so it
 * is written as text, and the lines of one turn of the event loop go out in one write. Fastify's
 * request logging is not used either: with a logger it made a child logger and two listeners
 * on every response to learn when it finished (about 1.5 µs of each answer). The line is made as
 * the answer goes out (`onSend`), from the request's arrival (`onRequest`). The fields are
 * pino's (level 30, time, pid, hostname, reqId), so a log reader sees one format. Lines wait at
 * most until the end of the turn, and a process that exits writes them first.
 */
export class AccessLog {
  #enabled: boolean;
  readonly #fixed = `"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())}`;
  #pending = '';

  constructor(level: string) {
    this.#enabled = INFO_LEVELS.has(level);
    if (!this.#enabled) return;
    process.on('exit', this.flush);
    // A reader that went away (`npm start | head`) stops the lines, not the server (as pino does).
    process.stdout.on('error', this.#brokenPipe);
  }

  readonly #brokenPipe = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    this.#enabled = false;
  };

  /** Logs every request of `app`: its hooks go before any other, so `ms` counts them all. */
  register(app: FastifyInstance) {
    app.decorateRequest('receivedAt', 0);
    if (!this.#enabled) return;
    app.addHook('onRequest', (request, _reply, done) => {
      request.receivedAt = performance.now();
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (this.#enabled) {
        const ms = Math.round((performance.now() - request.receivedAt) * 10) / 10;
        if (!this.#pending) setImmediate(this.flush);
        this.#pending += `{"level":30,"time":${Date.now()},${this.#fixed},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)},"status":${reply.statusCode},"ms":${ms},"msg":"request"}\n`;
      }
      done(null, payload);
    });
  }

  /** Writes the waiting lines (stdout is written synchronously on Linux, as pino writes it). */
  readonly flush = () => {
    if (!this.#pending) return;
    const lines = this.#pending;
    this.#pending = '';
    process.stdout.write(lines);
  };

  /** Stops writing at exit: the server is closed (its lines are written now). */
  close() {
    this.flush();
    process.off('exit', this.flush);
    process.stdout.off('error', this.#brokenPipe);
  }
}
