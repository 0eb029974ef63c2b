// Requests per minute per session (its Authorization header) or, without one, per address.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

export const tooManyRequests = (seconds: number) =>
  `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.`;

/**
 * One counter per key in a fixed window that starts again for every key at once: one map
 * lookup in one synchronous hook. @fastify/rate-limit's asynchronous hook, per-key timers and
 * three headers on every answer cost about 12% of a `/api/auth/me` answer (callgrind).
 */
export function registerRateLimit(
  app: FastifyInstance,
  max: number,
  // Sessions counted at once; past this, a new header is counted under its address instead.
  { windowMs = 60_000, maxKeys = 50_000 } = {},
): void {
  let counts = new Map<string, number>();
  let windowEnds = 0;
  app.addHook('onRequest', (request, reply, done) => {
    const now = Date.now();
    if (now >= windowEnds) {
      counts = new Map();
      windowEnds = now + windowMs;
    }
    const header = request.headers.authorization;
    // Made-up headers cannot grow the map without bound, nor buy a fresh count each.
    const key =
      header !== undefined && (counts.size < maxKeys || counts.has(header)) ? header : request.ip;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count <= max) return done();
    const seconds = Math.max(1, Math.ceil((windowEnds - now) / 1000));
    reply.header('retry-after', String(seconds));
    done(new HttpError(429, tooManyRequests(seconds)));
  });
}
