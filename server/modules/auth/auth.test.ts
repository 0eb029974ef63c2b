// Signing out ends the token on the server (after a restart too), and every signed-in user can
// change their own password, which ends their other sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokens, loadJwtKey, SESSION_INVALID } from '#server/plugins/auth.ts';
import { ADMIN, startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError } from '#server/test/spec.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const me = (token: string) => server.api('GET', '/api/auth/me', { token });
const logout = (token: string) => server.api('POST', '/api/auth/logout', { token });
const changePassword = (token: string, current_password: string, new_password: string) =>
  server.api('POST', '/api/auth/change-password', {
    token,
    body: { current_password, new_password },
  });

describe('POST /api/auth/logout', () => {
  it('ends the token it is called with, and only that one', async () => {
    const { user, token, password } = await server.createClient();
    const other = (await server.login(user.email, password)).access_token;
    const answer = await logout(token);
    expect(answer).toMatchObject({ status: 200, body: { detail: 'Anda telah keluar' } });
    expectCleanError(await me(token), 401);
    expect((await me(token)).body).toEqual({ detail: SESSION_INVALID });
    expectCleanError(await logout(token), 401);
    // The same user's other session (another device) goes on.
    expect((await me(other)).status).toBe(200);
    const admin = (await server.login(ADMIN.email, ADMIN.password)).access_token;
    expect((await logout(admin)).status).toBe(200);
    expectCleanError(await server.api('GET', '/api/admin/users', { token: admin }), 401);
    expect((await server.api('GET', '/api/admin/users', { token: server.adminToken })).status).toBe(
      200,
    );
  });

  it('is remembered in the database: a restarted server refuses the token too', async () => {
    const { token } = await server.createClient();
    expect((await logout(token)).status).toBe(200);
    // A new token service on the same database, as after a restart: nothing kept in memory.
    const restarted = createTokens(
      server.database,
      await loadJwtKey(server.database.db, null),
      server.config.tokenTtlSeconds,
    );
    expect(await restarted.check(`Bearer ${token}`)).toBeNull();
    const { token: live } = await server.createClient();
    expect((await restarted.check(`Bearer ${live}`))?.user.role).toBe('client');
  });

  it("is told apart from the same user's live tokens checked at the same moment", async () => {
    const { user, token, password } = await server.createClient();
    const live = (await server.login(user.email, password)).access_token;
    expect((await logout(token)).status).toBe(200);
    // Asked in one turn of the event loop.
    const checked = await Promise.all(
      [token, live, token, live].map((t) => server.context.tokens.check(`Bearer ${t}`)),
    );
    expect(checked.map((session) => session?.user.id ?? null)).toEqual([
      null,
      user.id,
      null,
      user.id,
    ]);
    expect(Object.keys(checked[1]!.user)).not.toContain('revoked');
  });
});

describe('POST /api/auth/change-password', () => {
  it('checks the current password, keeps the new one to the account rules, changes nothing else', async () => {
    const { token, password } = await server.createClient({ password: 'lama-rahasia' });
    const wrong = await changePassword(token, 'bukan-ini', 'baru-rahasia');
    expectCleanError(wrong, 400);
    expect(wrong.body.detail).toBe('Password saat ini salah');
    const short = await changePassword(token, password, '12345');
    expectCleanError(short, 422);
    expect(short.body.detail).toBe('Password minimal 6 karakter');
    const same = await changePassword(token, password, password);
    expectCleanError(same, 400);
    expect(same.body.detail).toBe('Password baru harus berbeda dari password saat ini');
    const empty = await changePassword(token, '', 'baru-rahasia');
    expectCleanError(empty, 422);
    expect(empty.body.detail).toBe('Password saat ini harus diisi');
    expect((await me(token)).status).toBe(200);
  });

  for (const role of ['client', 'super_admin'] as const) {
    it(`a ${role} changes their password: a new token, every other session ended`, async () => {
      const email = `ganti-${role}@sebar.test`;
      const created = await server.api('POST', '/api/admin/users', {
        token: server.adminToken,
        body: { username: `ganti-${role}`, email, password: 'lama-rahasia', role },
      });
      expect(created.status).toBe(201);
      const token = (await server.login(email, 'lama-rahasia')).access_token;
      const elsewhere = (await server.login(email, 'lama-rahasia')).access_token;
      const changed = await changePassword(token, 'lama-rahasia', 'baru-rahasia');
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({
        detail: 'Password berhasil diubah',
        token_type: 'bearer',
        user: { email, role },
      });
      expect((await me(changed.body.access_token)).status).toBe(200);
      expectCleanError(await me(elsewhere), 401);
      expectCleanError(await me(token), 401);
      const old = await server.api('POST', '/api/auth/login', {
        body: { email, password: 'lama-rahasia' },
      });
      expectCleanError(old, 401);
      expect((await server.login(email, 'baru-rahasia')).user.role).toBe(role);
    });
  }

  it('the current password is throttled like a sign-in', async () => {
    const { token } = await server.createClient({ password: 'lama-rahasia' });
    const statuses = [];
    for (let i = 0; i < server.config.login.maxPerPair + 1; i += 1)
      statuses.push((await changePassword(token, `tebakan-${i}`, 'baru-rahasia')).status);
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
