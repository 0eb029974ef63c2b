// The per-user limit: a user past it waits, others do not, and the window starts again. Keys are
// what the server verified (the user's id) or the caller's address, never the header as written,
// and the memory they take stays bounded.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test-helpers.ts';
import { createLog } from './access-log.ts';
import { registerErrorHandling } from './errors.ts';
import {
  createRateLimit,
  registerRateLimit,
  tooManyRequests,
  type RateLimit,
} from './rate-limit.ts';

describe('the per-user rate limit of the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ userRateLimit: 30 });
  });
  afterAll(() => server?.close());

  it('answers 429 with the wait once a user passes it, and counts each user apart', async () => {
    const { token } = await server.createClient();
    const other = await server.createClient();
    const answers = [];
    for (let i = 0; i < 31; i += 1)
      answers.push(await server.api('GET', '/api/auth/me', { token }));
    expect(answers.slice(0, 30).every((a) => a.status === 200)).toBe(true);
    const refused = answers[30]!;
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({ detail: tooManyRequests(seconds) });
    expect((await server.api('GET', '/api/auth/me', { token: other.token })).status).toBe(200);
  });

  it('counts one token under one bucket whatever the spelling of its scheme', async () => {
    const { token } = await server.createClient();
    const spellings = ['Bearer', 'bearer', 'BEARER', 'bEaReR'];
    const statuses = [];
    for (let i = 0; i < 31; i += 1) {
      const answer = await server.api('GET', '/api/auth/me', {
        headers: { authorization: `${spellings[i % spellings.length]} ${token}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('counts made-up tokens under the caller address, in one bounded key', async () => {
    const keys = server.context.rateLimit!.size();
    const statuses = [];
    for (let i = 0; i < 31; i += 1) {
      const answer = await server.api('GET', '/api/auth/me', {
        headers: { authorization: `Bearer ${'x'.repeat(4000)}.${i}` },
      });
      statuses.push(answer.status);
    }
    // The test's own requests from this address came first: the address is past its count.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.at(-1)).toBe(429);
    // 31 headers of 4 KB each, no new key: the address was counted already.
    expect(server.context.rateLimit!.size()).toBe(keys);
  });
});

describe('registerRateLimit with the auth guard', () => {
  // A stand-in guard: `Bearer user-N` is user N, anything else is no user (a bad token).
  const build = (limit: RateLimit) => {
    const app = Fastify();
    registerErrorHandling(app, createLog('silent'));
    registerRateLimit(app, limit);
    app.get('/public', { config: { access: 'public' } }, async () => ({ ok: true }));
    app.get(
      '/guarded',
      {
        config: { access: 'user' },
        onRequest: async (request, reply) => {
          const user = /^Bearer (user-\d+)$/.exec(request.headers.authorization ?? '')?.[1];
          limit.count(request, reply, user ?? null);
        },
      },
      async () => ({ ok: true }),
    );
    return app;
  };
  const get = (
    app: ReturnType<typeof build>,
    url: string,
    authorization?: string,
    remoteAddress = '127.0.0.1',
  ) =>
    app.inject({
      method: 'GET',
      url,
      remoteAddress,
      headers: authorization ? { authorization } : {},
    });

  it('starts counting again when the window ends', async () => {
    const app = build(createRateLimit(2, { windowMs: 300 }));
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(429);
    expect((await get(app, '/guarded', 'Bearer user-2')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    await app.close();
  });

  it('counts made-up headers, and public routes, under the caller address', async () => {
    const limit = createRateLimit(5);
    const app = build(limit);
    const statuses = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await get(app, '/guarded', `Bearer junk-${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect((await get(app, '/guarded', 'Bearer junk-new')).statusCode).toBe(429);
    expect((await get(app, '/public')).statusCode).toBe(429);
    expect((await get(app, '/public', 'Bearer another')).statusCode).toBe(429);
    // Another address and a verified user have counts of their own.
    expect((await get(app, '/public', undefined, '10.0.0.2')).statusCode).toBe(200);
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    expect(limit.size()).toBe(3);
    await app.close();
  });

  it('keeps a bounded number of keys under many unique headers and addresses', async () => {
    const limit = createRateLimit(1_000_000, { maxKeys: 50 });
    const app = build(limit);
    const junk = 'x'.repeat(2000);
    for (let i = 0; i < 500; i += 1) {
      await get(app, '/guarded', `Bearer ${junk}${i}`);
      await get(app, '/public', `Bearer ${junk}${i}`);
    }
    expect(limit.size()).toBe(1);
    for (let i = 0; i < 500; i += 1) {
      await get(app, '/guarded', `Bearer ${junk}${i}`, `10.1.${i >> 8}.${i & 255}`);
    }
    // The addresses past the bound share one count; users keep counts of their own.
    expect(limit.size()).toBeLessThanOrEqual(51);
    expect((await get(app, '/guarded', 'Bearer user-7')).statusCode).toBe(200);
    expect(limit.size()).toBeLessThanOrEqual(52);
    await app.close();
  });

  it('counts the addresses of one IPv6 /64 network as one', async () => {
    const limit = createRateLimit(3);
    const app = build(limit);
    const statuses = [];
    for (let i = 1; i <= 4; i += 1)
      statuses.push((await get(app, '/public', undefined, `2001:db8:7:8::${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await get(app, '/public', undefined, '2001:db8:7:9::1')).statusCode).toBe(200);
    expect(limit.size()).toBe(2);
    await app.close();
  });

  it('shares one count among the addresses past the bound', async () => {
    const limit = createRateLimit(3, { maxKeys: 2 });
    const app = build(limit);
    expect((await get(app, '/public', undefined, '10.0.0.1')).statusCode).toBe(200);
    expect((await get(app, '/public', undefined, '10.0.0.2')).statusCode).toBe(200);
    const overflow = [];
    for (let i = 3; i < 7; i += 1)
      overflow.push((await get(app, '/public', undefined, `10.0.0.${i}`)).statusCode);
    expect(overflow).toEqual([200, 200, 200, 429]);
    expect((await get(app, '/public', undefined, '10.0.0.1')).statusCode).toBe(200);
    await app.close();
  });
});
