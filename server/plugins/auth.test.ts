// A token's signature is checked once and remembered; these prove that what is remembered never
// outlives the token: expiry, a changed password, deactivation and deletion still end it at once,
// and a copy with one character changed is still refused.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { loadJwtKey, SESSION_INVALID } from './auth.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const me = (token: string) => server.api('GET', '/api/auth/me', { token });

async function expectRefused(token: string) {
  const answer = await me(token);
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual({ detail: SESSION_INVALID });
}

describe('a token already accepted', () => {
  it('is refused once it expires', async () => {
    const shortLived = await startServer({ tokenTtlSeconds: 2 });
    try {
      const { token } = await shortLived.createClient();
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
        exp: number;
      };
      const me = () => shortLived.api('GET', '/api/auth/me', { token });
      expect((await me()).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
      const answer = await me();
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: SESSION_INVALID });
    } finally {
      await shortLived.close();
    }
  });

  it('is refused the moment its user gets a new password, is deactivated or is deleted', async () => {
    const changes: ((id: string, email: string) => Promise<unknown>)[] = [
      (id) =>
        server.api('PUT', `/api/admin/users/${id}/password`, {
          token: server.adminToken,
          body: { new_password: 'sandi-baru-123' },
        }),
      (id, email) =>
        server.api('PUT', `/api/admin/users/${id}`, {
          token: server.adminToken,
          body: { username: `nonaktif-${id}`, email, points: 0, is_active: false },
        }),
      (id) => server.api('DELETE', `/api/admin/users/${id}`, { token: server.adminToken }),
    ];
    for (const change of changes) {
      const { user, token } = await server.createClient();
      expect((await me(token)).status).toBe(200);
      await change(user.id, user.email);
      await expectRefused(token);
    }
  });

  it('does not vouch for a copy with any one character of it changed', async () => {
    const { token } = await server.createClient();
    expect((await me(token)).status).toBe(200);
    const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The character one bit away: in the last one that bit is unused padding, so decoding alone
    // would read the same signature from it.
    const flip = (c: string) => BASE64URL[BASE64URL.indexOf(c) ^ 1]!;
    // One position in the header, in the payload, in the signature, and the last character.
    const dots = [token.indexOf('.'), token.lastIndexOf('.')];
    for (const at of [1, dots[0]! + 5, dots[1]! + 5, token.length - 1]) {
      await expectRefused(`${token.slice(0, at)}${flip(token[at]!)}${token.slice(at + 1)}`);
    }
    await expectRefused(`${token}.`);
    expect((await me(token)).status).toBe(200);
  });
});

describe('a token issued before fast-jwt signed them', () => {
  it('is accepted as it was: header {"alg":"HS256"}, the same claims', async () => {
    const { user } = await server.createClient();
    const key = await loadJwtKey(server.database.db, server.config.jwtSecret);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const issuedAt = Math.floor(Date.now() / 1000);
    const content = `${part({ alg: 'HS256' })}.${part({ ver: 0, sub: user.id, iat: issuedAt, exp: issuedAt + 600, jti: crypto.randomUUID() })}`;
    const signature = crypto.createHmac('sha256', key).update(content).digest('base64url');
    const answer = await me(`${content}.${signature}`);
    expect([answer.status, answer.body.id]).toEqual([200, user.id]);
  });
});

describe('the users of requests that arrive together', () => {
  it('each request gets its own user', async () => {
    // One of them twice, one deactivated, one deleted.
    const clients = [];
    for (let i = 0; i < 8; i += 1) clients.push(await server.createClient());
    const [inactive, deleted] = clients;
    await server.api('PUT', `/api/admin/users/${inactive!.user.id}`, {
      token: server.adminToken,
      body: { username: 'nonaktif', email: inactive!.user.email, points: 0, is_active: false },
    });
    await server.api('DELETE', `/api/admin/users/${deleted!.user.id}`, {
      token: server.adminToken,
    });
    const tokens = [...clients.map((c) => c.token), clients[5]!.token];
    const expected = [...clients.map((c) => c.user.id), clients[5]!.user.id];
    expected[0] = expected[1] = 'none';

    const checked = await Promise.all(
      tokens.map((t) => server.context.tokens.check(`Bearer ${t}`)),
    );
    expect(checked.map((session) => session?.user.id ?? 'none')).toEqual(expected);

    // Over HTTP, arriving as they come.
    const answers = await Promise.all(tokens.map((t) => me(t)));
    expect(answers.map((a) => (a.status === 200 ? a.body.id : a.status))).toEqual(
      expected.map((id) => (id === 'none' ? 401 : id)),
    );
  });
});
