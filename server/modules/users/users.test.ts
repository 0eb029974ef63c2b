// Client accounts over HTTP: create, edit (balance adjustments in the ledger), deactivate,
// password change and delete, each with what it does to sign-in and existing tokens.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '#server/db/ledger-check.ts';
import { migrate, MIGRATIONS } from '#server/db/migrate.ts';
import { verifyPassword } from '#server/modules/auth/passwords.ts';
import { ensureAdmin } from '#server/modules/users/users.service.ts';
import { freshDatabase, startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectSpecFields } from '#server/test/spec.ts';

let server: TestServer;
let admin = '';
beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
});
afterAll(() => server?.close());

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

async function createUser(username: string, email: string, password = 'rahasia-klien') {
  const answer = await server.api('POST', '/api/admin/users', {
    token: admin,
    body: { username, email, password, role: 'client' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const signIn = (email: string, password: string) =>
  server.api('POST', '/api/auth/login', { body: { email, password } });

const edit = (id: string, body: Record<string, unknown>) =>
  server.api('PUT', `/api/admin/users/${id}`, { token: admin, body });

describe('client accounts', () => {
  it('creates a client with SPEC fields; role defaults to client; email is unique', async () => {
    const created = await server.api('POST', '/api/admin/users', {
      token: admin,
      body: { username: ' ani ', email: 'Ani@Sebar.Test', password: 'rahasia' },
    });
    expect(created.status).toBe(201);
    expectSpecFields(created.body, 'clientUser');
    expect(created.body).toMatchObject({
      username: 'ani',
      email: 'ani@sebar.test',
      points: 0,
      is_active: true,
      role: 'client',
    });
    for (const email of ['ani@sebar.test', 'ANI@sebar.test', 'admin@sebar.test']) {
      const again = await server.api('POST', '/api/admin/users', {
        token: admin,
        body: { username: 'lagi', email, password: 'rahasia' },
      });
      expectCleanError(again, 409);
      expect(again.body.detail).toBe('Email sudah terdaftar');
    }
    const list = await server.api('GET', '/api/admin/users', { token: admin });
    expect(list.body.items.map((u: any) => u.email)).toEqual(['ani@sebar.test']);
    // The list holds clients only, never the administrator.
    expect(list.body.summary.total_clients).toBe(1);
  });

  it('takes an email with spaces around it; names an empty email or password as missing', async () => {
    const pasted = await server.api('POST', '/api/admin/users', {
      token: admin,
      body: { username: 'tempel', email: '  Tempel@Sebar.Test ', password: 'rahasia' },
    });
    expect(pasted.status, JSON.stringify(pasted.body)).toBe(201);
    expect(pasted.body.email).toBe('tempel@sebar.test');
    const renamed = await edit(pasted.body.id, {
      username: 'tempel',
      email: ' tempel2@sebar.test\t',
      points: 0,
      is_active: true,
    });
    expect(renamed.body.email).toBe('tempel2@sebar.test');

    const cases = [
      [{ email: '', password: 'rahasia' }, 'Email harus diisi'],
      [{ email: '   ', password: 'rahasia' }, 'Email harus diisi'],
      [{ email: 'bukan-email', password: 'rahasia' }, 'Format email tidak valid'],
      [{ email: 'kosong@sebar.test', password: '' }, 'Password harus diisi'],
      [{ email: 'pendek@sebar.test', password: '12345' }, 'Password minimal 6 karakter'],
    ] as const;
    for (const [fields, detail] of cases) {
      const refused = await server.api('POST', '/api/admin/users', {
        token: admin,
        body: { username: 'salah', ...fields },
      });
      expectCleanError(refused, 422);
      expect(refused.body.detail).toBe(detail);
    }
    const empty = await server.api('PUT', `/api/admin/users/${pasted.body.id}/password`, {
      token: admin,
      body: { new_password: '' },
    });
    expectCleanError(empty, 422);
    expect(empty.body.detail).toBe('Password harus diisi');
    const list = await server.api('GET', '/api/admin/users?page_size=100', { token: admin });
    expect(list.body.items.map((u: any) => u.username)).not.toContain('salah');
  });

  it('describes an adjustment with the balances written as id-ID writes them', async () => {
    const user = await createUser('gilang', 'gilang@sebar.test');
    const body = { username: 'gilang', email: 'gilang@sebar.test', is_active: true };
    expect((await edit(user.id, { ...body, points: 1474 })).status).toBe(200);
    expect((await edit(user.id, { ...body, points: 12500 })).status).toBe(200);
    const entries = await server.database.db
      .selectFrom('point_transactions')
      .select('description')
      .where('user_id', '=', user.id)
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => e.description)).toEqual([
      'Penyesuaian saldo oleh admin (0 → 1.474)',
      'Penyesuaian saldo oleh admin (1.474 → 12.500)',
    ]);
  });

  it('edits username, email, points (adjustment entries) and refuses a taken email', async () => {
    const user = await createUser('dedi', 'dedi@sebar.test');
    const other = await createUser('eka', 'eka@sebar.test');
    const up = await edit(user.id, {
      username: 'Dedi S',
      email: 'dedi.s@sebar.test',
      points: 50,
      is_active: true,
    });
    expect(up.status).toBe(200);
    expectSpecFields(up.body, 'clientUser');
    expect(up.body).toMatchObject({ username: 'Dedi S', email: 'dedi.s@sebar.test', points: 50 });
    const down = await edit(user.id, {
      username: 'Dedi S',
      email: 'dedi.s@sebar.test',
      points: 20,
      is_active: true,
    });
    expect(down.body.points).toBe(20);
    // Same points: no entry at all.
    await edit(user.id, {
      username: 'Dedi',
      email: 'dedi.s@sebar.test',
      points: 20,
      is_active: true,
    });

    const session = await signIn('dedi.s@sebar.test', 'rahasia-klien');
    expect(session.status).toBe(200);
    const history = await server.api('GET', '/api/client/transactions', {
      token: session.body.access_token,
    });
    expect(
      history.body.items.map((t: any) => [t.type, t.amount, t.delta, t.balance_after]),
    ).toEqual([
      ['adjustment', -30, -30, 20],
      ['adjustment', 50, 50, 50],
    ]);
    expect(history.body.summary).toMatchObject({
      total_adjustment: 20,
      count: 2,
      current_points: 20,
    });

    const taken = await edit(user.id, {
      username: 'Dedi',
      email: 'EKA@sebar.test',
      points: 20,
      is_active: true,
    });
    expectCleanError(taken, 409);
    expect(taken.body.detail).toBe('Email sudah terdaftar');
    expect(other.email).toBe('eka@sebar.test');
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('an edit form opened before the balance moved never overwrites it (expected_points)', async () => {
    const user = await createUser('gita', 'gita.ek@sebar.test');
    const base = { username: 'gita', email: 'gita.ek@sebar.test', is_active: true };
    // The form was opened at 0; meanwhile the balance moved to 30 (another edit, a top-up...).
    expect((await edit(user.id, { ...base, points: 30 })).body.points).toBe(30);

    const renamed = await edit(user.id, {
      ...base,
      username: 'Gita',
      points: 0,
      expected_points: 0,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ username: 'Gita', points: 30 });

    const stale = await edit(user.id, { ...base, points: 60, expected_points: 0 });
    expectCleanError(stale, 409);
    expect(stale.body.detail).toBe(
      'Poin klien berubah menjadi 30 sejak form dibuka. Tutup dan buka lagi form untuk mengubah poin.',
    );
    const fresh = await edit(user.id, { ...base, points: 60, expected_points: 30 });
    expect(fresh.body.points).toBe(60);
    const entries = await server.database.db
      .selectFrom('point_transactions')
      .select(['delta', 'balance_after'])
      .where('user_id', '=', user.id)
      .orderBy('seq')
      .execute();
    expect(entries).toEqual([
      { delta: 30, balance_after: 30 },
      { delta: 30, balance_after: 60 },
    ]);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('deactivation blocks sign-in and revokes tokens; reactivation allows a new sign-in', async () => {
    const user = await createUser('fajar', 'fajar@sebar.test');
    const session = await signIn('fajar@sebar.test', 'rahasia-klien');
    const token = session.body.access_token;
    expect((await server.api('GET', '/api/auth/me', { token })).status).toBe(200);
    const off = await edit(user.id, {
      username: 'fajar',
      email: 'fajar@sebar.test',
      points: 0,
      is_active: false,
    });
    expect(off.body.is_active).toBe(false);
    expectCleanError(await server.api('GET', '/api/auth/me', { token }), 401);
    expectCleanError(await server.api('GET', '/api/client/dashboard', { token }), 401);
    const refused = await signIn('fajar@sebar.test', 'rahasia-klien');
    expectCleanError(refused, 403);
    expect(refused.body.detail).toBe('Akun Anda tidak aktif. Hubungi admin.');
    // A wrong password on an inactive account still says only "wrong".
    expect((await signIn('fajar@sebar.test', 'salah-salah')).body.detail).toBe(
      'Email atau password salah',
    );

    await edit(user.id, {
      username: 'fajar',
      email: 'fajar@sebar.test',
      points: 0,
      is_active: true,
    });
    expectCleanError(await server.api('GET', '/api/auth/me', { token }), 401);
    const again = await signIn('fajar@sebar.test', 'rahasia-klien');
    expect(again.status).toBe(200);
    expect(
      (await server.api('GET', '/api/auth/me', { token: again.body.access_token })).status,
    ).toBe(200);
  });

  it('a password change revokes old tokens; only the new password works', async () => {
    const user = await createUser('gita-lain', 'gita@sebar.test', 'lama-123');
    const old = (await signIn('gita@sebar.test', 'lama-123')).body.access_token;
    const short = await server.api('PUT', `/api/admin/users/${user.id}/password`, {
      token: admin,
      body: { new_password: '12345' },
    });
    expectCleanError(short, 422);
    expect(short.body.detail).toBe('Password minimal 6 karakter');
    const changed = await server.api('PUT', `/api/admin/users/${user.id}/password`, {
      token: admin,
      body: { new_password: 'baru-456' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.detail).toBe('Password klien berhasil diperbarui');
    expectCleanError(await server.api('GET', '/api/auth/me', { token: old }), 401);
    expectCleanError(await signIn('gita@sebar.test', 'lama-123'), 401);
    const fresh = await signIn('gita@sebar.test', 'baru-456');
    expect(fresh.status).toBe(200);
    expect(
      (await server.api('GET', '/api/auth/me', { token: fresh.body.access_token })).status,
    ).toBe(200);
  });

  it("delete removes the client's blasts, requests and ledger; its token stops working", async () => {
    await server.api('POST', '/api/admin/pricing', {
      token: admin,
      body: { tier_name: 'Dasar', min_points: 1, max_points: 1000, price_per_point: 600 },
    });
    const client = await server.createClient({ username: 'hadi' });
    const request = await server.api('POST', '/api/client/point-requests', {
      token: client.token,
      body: { points_requested: 10, amount_paid: 6000, payment_proof_url: null },
    });
    await server.api('POST', `/api/admin/point-requests/${request.body.id}/approve`, {
      token: admin,
    });
    await server.api('POST', '/api/client/point-requests', {
      token: client.token,
      body: { points_requested: 5, amount_paid: 3000, payment_proof_url: null },
    });
    const blast = await server.api('POST', '/api/client/blast-requests', {
      token: client.token,
      body: { message: 'Halo', target_numbers: ['081234567890', '081234567891'] },
      headers: { 'Idempotency-Key': 'hapus-1' },
    });
    expect(blast.status).toBe(201);

    const deleted = await server.api('DELETE', `/api/admin/users/${client.user.id}`, {
      token: admin,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.detail).toBe('Klien hadi berhasil dihapus');

    const db = server.database.db;
    const count = async (table: string, where = sql`user_id = ${client.user.id}`) =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(db)
        ).rows[0]!.n,
      );
    for (const table of ['point_transactions', 'blasts', 'point_requests', 'idempotency_keys'])
      expect(await count(table), table).toBe(0);
    expect(await count('blast_numbers', sql`blast_id = ${blast.body.id}`)).toBe(0);
    expect(await count('users', sql`id = ${client.user.id}`)).toBe(0);
    const audit = await sql<{
      before_json: string;
    }>`select before_json from audit_log where action = 'user.delete' and target_id = ${client.user.id}`.execute(
      db,
    );
    expect(JSON.parse(audit.rows[0]!.before_json)).toMatchObject({
      username: 'hadi',
      points_forfeited: 8,
    });
    expect(await checkLedger(db)).toEqual([]);

    expectCleanError(await server.api('GET', '/api/auth/me', { token: client.token }), 401);
    expectCleanError(await signIn(client.user.email, client.password), 401);
    for (const id of [client.user.id, MISSING_ID]) {
      const again = await server.api('DELETE', `/api/admin/users/${id}`, { token: admin });
      expectCleanError(again, 404);
      expect(again.body.detail).toBe('Klien tidak ditemukan');
      expectCleanError(
        await edit(id, { username: 'x', email: 'x@sebar.test', points: 1, is_active: true }),
        404,
      );
      expectCleanError(
        await server.api('PUT', `/api/admin/users/${id}/password`, {
          token: admin,
          body: { new_password: 'rahasia-baru' },
        }),
        404,
      );
    }
    const dashboard = await server.api('GET', '/api/admin/dashboard', { token: admin });
    expect(dashboard.body.pending_points).toBe(0);
    expect(dashboard.body.pending_blasts).toBe(0);
  });

  it('lists clients newest first, 5 per page, with server-side stats', async () => {
    const page = await server.api('GET', '/api/admin/users', { token: admin });
    expect(page.body.page_size).toBe(5);
    expect(page.body.items).toHaveLength(5);
    const all = await server.api('GET', '/api/admin/users?page_size=100', { token: admin });
    const items = all.body.items;
    expect(all.body.total).toBe(items.length);
    const created = items.map((u: any) => u.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const total = items.reduce((n: number, u: any) => n + u.points, 0);
    expect(all.body.summary).toEqual({
      total_clients: items.length,
      active_clients: items.filter((u: any) => u.is_active).length,
      total_points: total,
      average_points: Math.round(total / items.length),
    });
  });
});

describe('usernames', () => {
  it('are unique in any letter case, on create and on edit, and a refusal changes nothing', async () => {
    const budi = await createUser('budi', 'budi.unik@sebar.test');
    const other = await createUser('wati', 'wati.unik@sebar.test');
    const before = await server.database.db.selectFrom('users').selectAll().orderBy('id').execute();
    for (const username of ['budi', 'BUDI', ' Budi ', 'admin', 'Admin']) {
      const again = await server.api('POST', '/api/admin/users', {
        token: admin,
        body: { username, email: `lain-${before.length}@sebar.test`, password: 'rahasia' },
      });
      expectCleanError(again, 409);
      expect(again.body.detail).toBe('Username sudah digunakan');
      const renamed = await edit(other.id, {
        username,
        email: other.email,
        points: 0,
        is_active: true,
      });
      expectCleanError(renamed, 409);
      expect(renamed.body.detail).toBe('Username sudah digunakan');
    }
    expect(
      await server.database.db.selectFrom('users').selectAll().orderBy('id').execute(),
    ).toEqual(before);
    // A user may change the case of their own name.
    const own = await edit(budi.id, {
      username: 'Budi',
      email: budi.email,
      points: 0,
      is_active: true,
    });
    expect(own.body.username).toBe('Budi');
  });

  it('two names saved at once: one is created, the other gets the same 409', async () => {
    const answers = await Promise.all(
      ['sinta', 'SINTA', 'Sinta'].map((username, i) =>
        server.api('POST', '/api/admin/users', {
          token: admin,
          body: { username, email: `sinta${i}@sebar.test`, password: 'rahasia' },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body.detail).toBe('Username sudah digunakan');
  });
});

describe('migration 008', () => {
  it('renames later accounts whose names differ only in case, then makes names unique', async () => {
    const fresh = await freshDatabase();
    const { db } = fresh.handle;
    try {
      await migrate(fresh.handle, MIGRATIONS.slice(0, 3));
      const names = ['budi', 'Budi', 'budi-2', 'BUDI', 'ani'];
      for (const [i, username] of names.entries()) {
        const at = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
        await db
          .insertInto('users')
          .values({
            id: `u${i}`,
            username,
            email: `u${i}@sebar.test`,
            password_hash: 'x',
            role: 'client',
            points: 0,
            ledger_seq: 0,
            is_active: 1,
            token_version: 0,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      expect(await migrate(fresh.handle, MIGRATIONS.slice(0, 4))).toEqual(['008-unique-usernames']);
      const rows = await db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
      expect(rows.map((row) => row.username)).toEqual([
        'budi',
        'Budi-3',
        'budi-2',
        'BUDI-4',
        'ani',
      ]);
      const audit = await db
        .selectFrom('audit_log')
        .select(['target_id', 'before_json', 'after_json'])
        .where('action', '=', 'user.rename-duplicate')
        .orderBy('target_id')
        .execute();
      expect(audit).toEqual([
        {
          target_id: 'u1',
          before_json: '{"username":"Budi"}',
          after_json: '{"username":"Budi-3"}',
        },
        {
          target_id: 'u3',
          before_json: '{"username":"BUDI"}',
          after_json: '{"username":"BUDI-4"}',
        },
      ]);
      await expect(
        db.updateTable('users').set({ username: 'ANI' }).where('id', '=', 'u0').execute(),
      ).rejects.toThrow();
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });
});

describe('administrators', () => {
  it('instances starting together make one first administrator; only its password is shown', async () => {
    const fresh = await freshDatabase();
    try {
      await migrate(fresh.handle);
      // Each finds no administrator before any has stored one (CI once failed here: the losing
      // insert hit the unique username).
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => ensureAdmin(fresh.handle, 'Pertama@Sebar.Test', null)),
      );
      const shown = answers.filter((answer) => answer !== null);
      expect(shown).toHaveLength(1);
      const admins = await fresh.handle.db
        .selectFrom('users')
        .select(['email', 'password_hash'])
        .where('role', '=', 'super_admin')
        .execute();
      expect(admins.map((row) => row.email)).toEqual(['pertama@sebar.test']);
      expect(await verifyPassword(admins[0]!.password_hash, shown[0]!.generatedPassword!)).toBe(
        true,
      );
      expect(await ensureAdmin(fresh.handle, 'lain@sebar.test', null)).toBeNull();
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });

  it('refuses a first administrator who could never sign in, and stores none', async () => {
    const fresh = await freshDatabase();
    try {
      await migrate(fresh.handle);
      await expect(ensureAdmin(fresh.handle, 'bukan-email', 'rahasia-admin')).rejects.toThrow(
        'SEBAR_ADMIN_EMAIL / SEBAR_ADMIN_PASSWORD: Format email tidak valid',
      );
      await expect(ensureAdmin(fresh.handle, 'admin@sebar.test', '12345')).rejects.toThrow(
        'Password minimal 6 karakter',
      );
      const users = await fresh.handle.db.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
      // The default address is a valid one.
      expect(await ensureAdmin(fresh.handle, null, null)).toMatchObject({
        email: 'admin@sebar.local',
      });
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });

  it('the admin creates another super administrator, who runs the back office', async () => {
    const created = await server.api('POST', '/api/admin/users', {
      token: admin,
      body: {
        username: 'admin-dua',
        email: 'admin2@sebar.test',
        password: 'rahasia-admin',
        role: 'super_admin',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.role).toBe('super_admin');
    const session = await signIn('admin2@sebar.test', 'rahasia-admin');
    expect(session.body.user.role).toBe('super_admin');
    const token = session.body.access_token;
    expect((await server.api('GET', '/api/admin/users', { token })).status).toBe(200);
    expect((await server.api('GET', '/api/client/dashboard', { token })).status).toBe(403);
    // The clients list and its figures hold clients only.
    const list = await server.api('GET', '/api/admin/users', { token: admin, headers: {} });
    expect(list.body.items.some((u: any) => u.email === 'admin2@sebar.test')).toBe(false);
    const bad = await server.api('POST', '/api/admin/users', {
      token: admin,
      body: { username: 'x9', email: 'x9@sebar.test', password: 'rahasia', role: 'owner' },
    });
    expectCleanError(bad, 422);
    expect(bad.body.detail).toBe('Role harus client atau super_admin');
  });
});
