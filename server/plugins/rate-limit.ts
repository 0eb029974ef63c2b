// Requests per minute per signed-in user (its verified id) or, before that, per address.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from './address.ts';
import { HttpError } from './errors.ts';

export const tooManyRequests = (seconds: number) =>
  `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.`;

/** Counts a request under a key and refuses it (429 with Retry-After) past the limit. */
export interface RateLimit {
  /** Counts the request under the user's id, or under its address when `userId` is null. */
  count(request: FastifyRequest, reply: FastifyReply, userId: string | null): void;
  /** Keys counted in the current window (tests prove the memory stays bounded). */
  size(): number;
}

/** The key shared by every address once the map of addresses is full. */
const OVERFLOW = 'ip:*';

/**
 * One counter per key in a fixed window that starts again for every key at once: one map
 * lookup per request. @fastify/rate-limit's asynchronous hook, per-key timers and three headers
 * on every answer cost about 12% of a `/api/auth/me` answer (callgrind).
 *
 * Keys are what the server knows, never what the caller wrote: a guarded route counts under the
 * verified user's id (the auth guard calls `count` after checking the token), everything else,
 * a missing or bad token included, under the caller's address (an IPv6 one by its /64). Users are as many as the users
 * table; addresses past `maxKeys` in one window share one count, so made-up headers or many
 * addresses cannot grow the memory without bound.
 */
export function createRateLimit(
  max: number,
  { windowMs = 60_000, maxKeys = 50_000 } = {},
): RateLimit {
  let counts = new Map<string, number>();
  let addresses = 0;
  let windowEnds = 0;
  return {
    count(request, reply, userId) {
      const now = Date.now();
      if (now >= windowEnds) {
        counts = new Map();
        addresses = 0;
        windowEnds = now + windowMs;
      }
      let key = userId === null ? `ip:${addressKey(request.ip)}` : `user:${userId}`;
      let count = counts.get(key);
      if (count === undefined && userId === null) {
        if (addresses >= maxKeys) {
          key = OVERFLOW;
          count = counts.get(key);
        }
        if (count === undefined) addresses += 1;
      }
      count = (count ?? 0) + 1;
      counts.set(key, count);
      if (count <= max) return;
      const seconds = Math.max(1, Math.ceil((windowEnds - now) / 1000));
      reply.header('retry-after', String(seconds));
      throw new HttpError(429, tooManyRequests(seconds));
    },
    size: () => counts.size,
  };
}

/**
 * Counts every request that no auth guard counts (public routes, files, unknown paths) under
 * its address; guarded routes are counted by the guard once their token is checked.
 */
export function registerRateLimit(app: FastifyInstance, limit: RateLimit): void {
  app.addHook('onRequest', (request, reply, done) => {
    const access = request.routeOptions.config?.access;
    if (access !== undefined && access !== 'public') return done();
    try {
      limit.count(request, reply, null);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
