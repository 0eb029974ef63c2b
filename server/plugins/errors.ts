// One error shape, {detail, errors?}, with an Indonesian message; nothing internal leaks out.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { API_HEADERS } from './security-headers.ts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const notFound = (what = 'Data') => new HttpError(404, `${what} tidak ditemukan`);
export const conflict = (detail: string) => new HttpError(409, detail);
export const badRequest = (detail: string) => new HttpError(400, detail);

const FRAMEWORK_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Format JSON tidak valid'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Body JSON tidak boleh kosong'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Ukuran data terlalu besar'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Jenis konten tidak didukung'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Panjang konten tidak valid'],
  FST_REQ_FILE_TOO_LARGE: [413, 'Ukuran file maksimal 5MB'],
  FST_PARTS_LIMIT: [413, 'Terlalu banyak bagian dalam upload'],
  FST_FILES_LIMIT: [413, 'Hanya satu file yang boleh diupload'],
  FST_FIELDS_LIMIT: [413, 'Terlalu banyak field dalam upload'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'Upload harus berupa multipart/form-data'],
  FST_ERR_VALIDATION: [422, 'Data tidak valid'],
};

/** Unique and check violations on SQLite and PostgreSQL. */
const CONSTRAINT_CODES = new Set([
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  'SQLITE_CONSTRAINT_CHECK',
  '23505',
  '23514',
]);

/** A row this request points at was deleted by another request meanwhile. */
const FOREIGN_KEY_CODES = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

/** Values PostgreSQL refuses that SQLite would store; the NUL guard below keeps both engines alike. */
const VALUE_CODES: Record<string, string> = {
  '22021': 'Teks mengandung karakter yang tidak diizinkan',
  '22P05': 'Teks mengandung karakter yang tidak diizinkan',
  '22003': 'Angka terlalu besar',
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// NUL is what PostgreSQL refuses, so the control character is meant.
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\u0000\ud800-\udfff]/;
const NUL_MESSAGE = VALUE_CODES['22021']!;
const SURROGATE_MESSAGE = 'Teks mengandung karakter yang tidak valid';

/** What is wrong with a text in `value` (keys included), or null. */
function badText(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') {
    // Most text has neither, and one scan tells.
    if (!SUSPECT.test(value)) return null;
    if (value.includes('\u0000')) return NUL_MESSAGE;
    return LONE_SURROGATE.test(value) ? SURROGATE_MESSAGE : null;
  }
  if (typeof value !== 'object' || value === null || depth > 20) return null;
  // Bytes are not text: a body kept raw (a webhook's, for its signature) is checked as JSON by its
  // route, and its entries, one number per byte, could never hold either character.
  if (ArrayBuffer.isView(value)) return null;
  // An array's keys are its indexes: only its items are text to check (500 numbers of a blast).
  if (Array.isArray(value)) {
    for (const item of value) {
      const bad = badText(item, depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const bad = badText(k) ?? badText(v, depth + 1);
    if (bad) return bad;
  }
  return null;
}

/** At most this many field errors, each message at most this long: a huge bad body stays short. */
const MAX_ERRORS = 20;
const MAX_MESSAGE = 200;
const clip = (text: string) =>
  text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;

export function registerErrorHandling(app: FastifyInstance): void {
  // PostgreSQL cannot store a NUL character, and a lone UTF-16 surrogate (JSON allows "\ud800")
  // is no text at all (both engines would store U+FFFD instead): refuse them anywhere.
  app.addHook('preValidation', (request, _reply, done) => {
    const bad = badText(request.params) ?? badText(request.query) ?? badText(request.body);
    done(bad ? new HttpError(422, bad) : undefined);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.slice(0, MAX_ERRORS).map((issue) => ({
        field: clip(issue.instancePath.replace(/^\//, '').replaceAll('/', '.')),
        message: clip(issue.message ?? 'Tidak valid'),
      }));
      const first = errors[0];
      return reply.status(422).send({ detail: first ? first.message : 'Data tidak valid', errors });
    }
    // A race that a constraint caught (e.g. the same email created twice at once): nothing changed.
    if (error.code && CONSTRAINT_CODES.has(error.code)) {
      return reply
        .status(409)
        .send({ detail: 'Data bertabrakan dengan data lain. Muat ulang dan coba lagi.' });
    }
    if (error.code && FOREIGN_KEY_CODES.has(error.code)) {
      return reply
        .status(409)
        .send({ detail: 'Data terkait sudah dihapus. Muat ulang dan coba lagi.' });
    }
    const value = error.code ? VALUE_CODES[error.code] : undefined;
    if (value) return reply.status(422).send({ detail: value });
    const known = error.code ? FRAMEWORK_MESSAGES[error.code] : undefined;
    if (known) return reply.status(known[0]).send({ detail: known[1] });
    if (error.statusCode === 429) {
      return reply.status(429).send({ detail: 'Terlalu banyak permintaan. Coba lagi nanti.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ detail: 'Permintaan tidak valid' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Terjadi kesalahan pada server' });
  });
}

/**
 * Requests Node's HTTP parser refuses (a malformed request line or header, headers over the size
 * limit) never reach Fastify's routing: the answer is written on the socket here, in our shape.
 */
export function clientErrors(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Header permintaan terlalu besar']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Waktu permintaan habis']
        : [400, 'Permintaan tidak valid'];
  const body = JSON.stringify({ detail });
  const headers = {
    ...API_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`);
  socket.destroy(error);
}

/**
 * Answers Fastify gives before any hook runs (a path it cannot decode, an over-long parameter):
 * the same {detail} shape, and strict headers set here because the security hooks never ran.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply
    .headers(API_HEADERS)
    .status(tooLong ? 414 : 400)
    .send({ detail: tooLong ? 'Alamat terlalu panjang' : 'Alamat tidak valid' });
}
