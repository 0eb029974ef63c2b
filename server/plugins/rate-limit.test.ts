// The per-session limit: a session past it waits, others do not, and the window starts again.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test-helpers.ts';
import { createLog } from './access-log.ts';
import { registerErrorHandling } from './errors.ts';
import { registerRateLimit, tooManyRequests } from './rate-limit.ts';

describe('the per-session rate limit of the real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ userRateLimit: 30 });
  });
  afterAll(() => server?.close());

  it('answers 429 with the wait once a session passes it, and counts each session apart', async () => {
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
});

describe('registerRateLimit', () => {
  const app = Fastify();
  registerErrorHandling(app, createLog('silent'));
  registerRateLimit(app, 2, { windowMs: 300, maxKeys: 3 });
  app.get('/', async () => ({ ok: true }));
  const get = (authorization?: string) =>
    app.inject({ method: 'GET', url: '/', headers: authorization ? { authorization } : {} });
  afterAll(() => app.close());

  it('starts counting again when the window ends', async () => {
    expect((await get('Bearer a')).statusCode).toBe(200);
    expect((await get('Bearer a')).statusCode).toBe(200);
    expect((await get('Bearer a')).statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get('Bearer a')).statusCode).toBe(200);
  });

  it('counts made-up headers past its capacity under their address', async () => {
    await new Promise((resolve) => setTimeout(resolve, 350));
    // Three keys fill it; every new header after that shares the address's count.
    expect((await get('Bearer 1')).statusCode).toBe(200);
    expect((await get('Bearer 2')).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    expect((await get('Bearer 3')).statusCode).toBe(200);
    expect((await get('Bearer 4')).statusCode).toBe(429);
    expect((await get('Bearer 1')).statusCode).toBe(200);
  });
});
