// The access log of the production server: one line per answered request, in pino's format,
// with the signed-in user and never the token.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN } from '#server/test/helpers.ts';
import {
  burst,
  processDatabase,
  send,
  signIn,
  startChild,
  stopChildren,
  withDb,
  type ChildServer,
  type ProcessDatabase,
} from '#server/test/processes.ts';

let database: ProcessDatabase;
beforeAll(async () => {
  database = await processDatabase();
});
afterEach(stopChildren);
afterAll(() => database.drop());

const lines = (server: ChildServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const requestLines = (server: ChildServer) => lines(server).filter((l) => l.msg === 'request');

describe('the access log', () => {
  it('writes one line per answered request at LOG_LEVEL=info, with pino fields, without waiting for exit', async () => {
    const server = await startChild(database, { LOG_LEVEL: 'info' });
    const odd = '/api/health?q=%22kutip%22&x=a\\b'; // a backslash and an escape, as sent
    const answers = [
      await send({ url: server.url, method: 'GET', path: '/api/auth/me', token: 'x.y.z' }),
      await send({ url: server.url, method: 'GET', path: odd }),
      await send({ url: server.url, method: 'GET', path: '/api/tidak-ada' }),
      ...(await burst(
        Array.from({ length: 40 }, (_, i) => ({
          url: server.url,
          method: 'GET',
          path: `/api/health?i=${i}`,
        })),
      )),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 200, 404, ...Array<number>(40).fill(200)]);

    // Written at the end of the turn that answered them, while the server runs on.
    // (Start-up's own health checks are logged before them.)
    const ours = () => requestLines(server).filter((l) => l.url !== '/api/health');
    await expect.poll(() => ours().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(43);
    const written = ours();
    expect(written).toHaveLength(43);
    const pinoLine = lines(server).find((l) => l.msg !== 'request')!;
    for (const line of written) {
      expect(Object.keys(line)).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'method',
        'url',
        'status',
        'ms',
        'msg',
      ]);
      expect(line).toMatchObject({
        level: 30,
        pid: server.child.pid,
        hostname: pinoLine.hostname,
        method: 'GET',
      });
      expect(Math.abs((line.time as number) - Date.now())).toBeLessThan(60_000);
      expect(line.ms).toEqual(expect.any(Number));
    }
    expect(written[0]).toMatchObject({ url: '/api/auth/me', status: 401 });
    expect(written[1]).toMatchObject({ url: odd, status: 200 });
    expect(written[2]).toMatchObject({ url: '/api/tidak-ada', status: 404 });
    expect(written.slice(3).map((l) => l.url)).toEqual(
      expect.arrayContaining(Array.from({ length: 40 }, (_, i) => `/api/health?i=${i}`)),
    );
    expect(new Set(written.map((l) => l.reqId)).size).toBe(43);
  });

  it('logs a server error with the reqId of its access line', async () => {
    const server = await startChild(database, { LOG_LEVEL: 'info' });
    const token = await signIn(server.url, ADMIN.email, ADMIN.password);
    // A table gone from under the running server: its next read fails as no input can make it.
    await withDb(database, ({ db }) => sql`drop table notes`.execute(db));
    const answer = await send({ url: server.url, method: 'GET', path: '/api/admin/notes', token });
    expect(answer).toMatchObject({
      status: 500,
      body: { detail: 'Terjadi kesalahan pada server' },
    });

    const access = () => requestLines(server).find((l) => l.url === '/api/admin/notes');
    await expect.poll(access, { timeout: 5_000 }).toMatchObject({ status: 500 });
    // The line names the signed-in user; no line carries the token.
    const me = await send({ url: server.url, method: 'GET', path: '/api/auth/me', token });
    expect(access()!.userId).toBe((me.body as { id: string }).id);
    expect(server.output()).not.toContain(token);
    const failure = lines(server).filter((l) => l.msg === 'unhandled error');
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatchObject({ level: 50, reqId: access()!.reqId });
    expect(failure[0]!.err).toMatchObject({ message: expect.stringContaining('notes') });
  });

  it('writes no request lines at LOG_LEVEL=warn', async () => {
    const server = await startChild(database, { LOG_LEVEL: 'warn' });
    await send({ url: server.url, method: 'GET', path: '/api/health' });
    await server.kill('SIGTERM');
    expect(requestLines(server)).toEqual([]);
  });
});
