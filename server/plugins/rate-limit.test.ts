// The per-user limit: a user past it waits, others do not, and the window starts again. Keys are
// what the server verified (the user's id) or the caller's address, never the header as written.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { registerErrorHandling } from './errors.ts';
import { registerRateLimit, tooManyRequests, type RateLimitOptions } from './rate-limit.ts';

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

  it('counts made-up tokens under the caller address', async () => {
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
  });
});

describe('registerRateLimit after the auth guard', () => {
  // A stand-in guard: `Bearer user-N` is user N, anything else is no user (a bad token).
  const build = async (options: RateLimitOptions) => {
    const app = Fastify();
    app.decorateRequest('user', null);
    registerErrorHandling(app);
    app.addHook('onRoute', (route) => {
      if (route.config?.access !== 'user') return;
      route.onRequest = async (request) => {
        const id = /^Bearer (user-\d+)$/.exec(request.headers.authorization ?? '')?.[1];
        request.user = id ? ({ id } as unknown as typeof request.user) : null;
      };
    });
    await registerRateLimit(app, options);
    app.get('/public', { config: { access: 'public' } }, async () => ({ ok: true }));
    app.get('/guarded', { config: { access: 'user' } }, async () => ({ ok: true }));
    return app;
  };
  const get = (
    app: Awaited<ReturnType<typeof build>>,
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
    const app = await build({ max: 2, windowMs: 300 });
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    const refused = await get(app, '/guarded', 'Bearer user-1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ detail: tooManyRequests(1) });
    expect((await get(app, '/guarded', 'Bearer user-2')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get(app, '/guarded', 'Bearer user-1')).statusCode).toBe(200);
    await app.close();
  });

  it('counts made-up headers, and public routes, under the caller address', async () => {
    const app = await build({ max: 5 });
    const statuses = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await get(app, '/guarded', `Bearer junk-${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect((await get(app, '/guarded', 'Bearer junk-new')).statusCode).toBe(429);
    expect((await get(app, '/public')).statusCode).toBe(429);
    expect((await get(app, '/public', 'Bearer another')).statusCode).toBe(429);
    // Another address and a verified user have counts of their own.
    expect((await get(app, '/public', undefined, '10.0.0.2')).statusCode).toBe(200);
    const allowed = await get(app, '/guarded', 'Bearer user-1');
    expect(allowed.statusCode).toBe(200);
    // Only a refused answer carries a rate-limit header.
    expect(Object.keys(allowed.headers).filter((name) => name.includes('rate'))).toEqual([]);
    await app.close();
  });

  it('counts the addresses of one IPv6 /64 network as one', async () => {
    const app = await build({ max: 3 });
    const statuses = [];
    for (let i = 1; i <= 4; i += 1)
      statuses.push((await get(app, '/public', undefined, `2001:db8:7:8::${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await get(app, '/public', undefined, '2001:db8:7:9::1')).statusCode).toBe(200);
    await app.close();
  });
});
