// Requests per window per signed-in user (its verified id), or per address without a valid token.
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

export const tooManyRequests = (seconds: number) =>
  `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.`;

export interface RateLimitOptions {
  /** Requests per window and key. */
  max: number;
  windowMs?: number;
  /** Keys remembered at most (the least recently used go first). */
  cache?: number;
}

/**
 * Keys are what the server knows, never what the caller wrote: the user the auth guard verified
 * (its hook runs before this one), else the caller's address, an IPv6 one by its /64 network.
 */
const key = (request: FastifyRequest) =>
  request.user ? `user:${request.user.id}` : `ip:${normalizeIP(request.ip)}`;

/**
 * @fastify/rate-limit on every route registered after it, and on unknown paths (`notFound`).
 * Only a refused request gets a header: Retry-After.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  { max, windowMs = 60_000, cache = 50_000 }: RateLimitOptions,
): Promise<void> {
  await app.register(fastifyRateLimit, {
    max,
    timeWindow: windowMs,
    cache,
    keyGenerator: key,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(429, tooManyRequests(seconds));
    },
  });
}
