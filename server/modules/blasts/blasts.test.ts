// Blast creation rules over HTTP: SPEC section 5's checks in their order, the 500 limit on what
// was entered, and the charge equal to the distinct numbers whatever format each was typed in.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '#server/db/ledger-check.ts';
import { engine, startServer, type TestServer } from '#server/test/helpers.ts';
import { applyPoints } from '#server/modules/points/ledger.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let client = { id: '', token: '' };
beforeAll(async () => {
  server = await startServer();
  const created = await server.createClient({ username: 'rina', email: 'rina@sebar.test' });
  client = { id: created.user.id, token: created.token };
  const funded = await server.api('PUT', `/api/admin/users/${client.id}`, {
    token: server.adminToken,
    body: { username: 'rina', email: 'rina@sebar.test', points: 100_000, is_active: true },
  });
  expect(funded.status).toBe(200);
});
afterAll(() => server?.close());

const send = (body: unknown) =>
  server.api('POST', '/api/client/blast-requests', { token: client.token, body });
const local = (i: number) => `0812${String(i).padStart(8, '0')}`;

describe('blast creation', () => {
  it("checks in SPEC's order: message, empty list, more than 500 entered, invalid numbers, balance", async () => {
    const many = Array.from({ length: 501 }, (_, i) => (i % 2 ? 'salah' : local(i)));
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [{ message: '  ', target_numbers: [] }, 'Pesan blast tidak boleh kosong'],
        [{ target_numbers: ['abc'] }, 'Pesan blast tidak boleh kosong'],
        [{ message: 'Halo', target_numbers: [] }, 'Daftar nomor telepon tidak boleh kosong'],
        [{ message: 'Halo' }, 'Daftar nomor telepon tidak boleh kosong'],
        [{ message: 'Halo', target_numbers: many }, 'Maksimal 500 nomor kontak per blast'],
        // 501 entries of one number: the limit counts what was entered.
        [
          { message: 'Halo', target_numbers: Array(501).fill(local(1)) },
          'Maksimal 500 nomor kontak per blast',
        ],
        [
          { message: 'Halo', target_numbers: [local(1), '0812-345', '', '+1 555 0100'] },
          '3 nomor tidak valid. Mohon perbaiki format nomor',
        ],
        [{ message: 'x'.repeat(1001), target_numbers: [local(1)] }, 'Pesan maksimal 1000 karakter'],
      ] as const) {
        const answer = await send(body);
        expectCleanError(answer, 422);
        expect(answer.body.detail, JSON.stringify(body).slice(0, 80)).toBe(detail);
      }
    });
  });

  it('accepts exactly 500 entered numbers and a 1000-character message', async () => {
    const numbers = Array.from({ length: 500 }, (_, i) => local(i % 250));
    const answer = await send({ message: 'y'.repeat(1000), target_numbers: numbers });
    expect(answer.status).toBe(201);
    expect(answer.body.points_used).toBe(250);
    expect(answer.body.message).toHaveLength(1000);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('charges the distinct numbers whatever format each one was typed in', async () => {
    // Each subscriber number (without prefix) rendered in any SPEC format, with spaces and hyphens.
    const subscriber = fc
      .integer({ min: 0, max: 40 })
      .map((n) => `81${String(n).padStart(8, '0')}`);
    const rendered = fc.tuple(
      subscriber,
      fc.constantFrom('+62', '62', '0', ''),
      fc.constantFrom('', ' ', '-'),
    );
    let balance = (await server.api('GET', '/api/auth/me', { token: client.token })).body.points;
    await fc.assert(
      fc.asyncProperty(fc.array(rendered, { minLength: 1, maxLength: 30 }), async (entries) => {
        const typed = entries.map(([digits, prefix, sep]) =>
          `${prefix}${digits.slice(0, 3)}${sep}${digits.slice(3, 7)}${sep}${digits.slice(7)}`.trim(),
        );
        const distinct = new Set(entries.map(([digits]) => digits));
        const answer = await send({ message: 'Acak', target_numbers: typed });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        expect(answer.body.points_used).toBe(distinct.size);
        expect(new Set(answer.body.target_numbers)).toEqual(
          new Set([...distinct].map((d) => `62${d}`)),
        );
        balance -= distinct.size;
        const me = await server.api('GET', '/api/auth/me', { token: client.token });
        expect(me.body.points).toBe(balance);
      }),
      { numRuns: 25, seed: 20251122 },
    );
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  // Only PostgreSQL runs two writers' transactions side by side (SQLite's writes take turns).
  it.runIf(engine === 'postgres')(
    'refused for a balance spent meanwhile, it names the balance that was short, not the one read first',
    async () => {
      const other = await server.createClient({ username: 'sari', email: 'sari@sebar.test' });
      const funded = await server.api('PUT', `/api/admin/users/${other.user.id}`, {
        token: server.adminToken,
        body: { username: 'sari', email: 'sari@sebar.test', points: 100, is_active: true },
      });
      expect(funded.status).toBe(200);
      const numbers = Array.from({ length: 60 }, (_, i) => local(i));
      let asked: ReturnType<typeof send> | undefined;
      // Another writer spends 60 of the 100 points and holds the row while the blast is asked
      // for: the server reads 100, then its debit waits, and runs against 40 once that commits.
      await server.database.db.transaction().execute(async (trx) => {
        await applyPoints(
          { db: trx, engine },
          {
            userId: other.user.id,
            type: 'adjustment',
            delta: -60,
            description: 'Koreksi admin',
          },
        );
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        asked = server.api('POST', '/api/client/blast-requests', {
          token: other.token,
          body: { message: 'Halo', target_numbers: numbers },
        });
        for (;;) {
          const { rows: waiting } = await sql`select pid from pg_stat_activity
            where ${rows[0]!.pid} = any(pg_blocking_pids(pid))`.execute(server.database.db);
          if (waiting.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      const answer = await asked!;
      expectCleanError(answer, 409);
      expect(answer.body.detail).toBe(
        'Poin Tidak Cukup: Anda membutuhkan 60 poin, tetapi hanya memiliki 40 poin',
      );
      const me = await server.api('GET', '/api/auth/me', { token: other.token });
      expect(me.body.points).toBe(40);
      expect(await checkLedger(server.database.db)).toEqual([]);
    },
  );
});

describe('a result entered over saved per-number statuses', () => {
  const admin = (route: string, body: unknown) =>
    server.api('POST', route, { token: server.adminToken, body });
  const balance = async () =>
    (await server.api('GET', '/api/auth/me', { token: client.token })).body.points as number;
  const history = async () =>
    (await server.api('GET', '/api/client/transactions', { token: client.token })).body.items;

  it('keeps every saved status its counts leave room for, on entry and on re-edit', async () => {
    const created = await send({
      message: 'Tujuh nomor',
      target_numbers: Array.from({ length: 7 }, (_, i) => local(700 + i)),
    });
    expect(created.status).toBe(201);
    const { id } = created.body;
    const statuses = await admin(`/api/admin/blast-requests/${id}/number-statuses`, {
      number_statuses: { 0: 'success', 1: 'failed', 2: 'no_wa', 3: 'success' },
    });
    expect(statuses.status).toBe(200);
    const start = await balance();

    // The form's start for it: the saved statuses, the three pending numbers successful.
    const done = await admin(`/api/admin/blast-requests/${id}/result`, {
      successful_count: 5,
      failed_count: 1,
      no_wa_count: 1,
      admin_notes: null,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      status: 'completed',
      successful_count: 5,
      failed_count: 1,
      no_wa_count: 1,
      refund_points: 2,
      number_statuses: {
        0: 'success',
        1: 'failed',
        2: 'no_wa',
        3: 'success',
        4: 'success',
        5: 'success',
        6: 'success',
      },
    });
    expect(await balance()).toBe(start + 2);

    // A re-edit with one more no-WA: only the last number changes.
    const again = await admin(`/api/admin/blast-requests/${id}/result`, {
      successful_count: 4,
      failed_count: 1,
      no_wa_count: 2,
      admin_notes: null,
    });
    expect(again.body).toMatchObject({
      refund_points: 3,
      number_statuses: {
        0: 'success',
        1: 'failed',
        2: 'no_wa',
        3: 'success',
        4: 'success',
        5: 'success',
        6: 'no_wa',
      },
    });
    expect(await balance()).toBe(start + 3);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('describes a refund taken back by a re-edit as a correction, not as a refund', async () => {
    const created = await send({
      message: 'Koreksi',
      target_numbers: Array.from({ length: 4 }, (_, i) => local(800 + i)),
    });
    const { id } = created.body;
    const result = (failed: number) =>
      admin(`/api/admin/blast-requests/${id}/result`, {
        successful_count: 4 - failed,
        failed_count: failed,
        no_wa_count: 0,
        admin_notes: null,
      });
    expect((await result(3)).status).toBe(200);
    const [refund, usage] = await history();
    expect(refund).toMatchObject({
      type: 'refund',
      delta: 3,
      description: 'Refund blast: 3 gagal, 0 tanpa WhatsApp',
      blast_id: id,
    });
    // Each entry names its blast, so History Poin opens it (a top-up names none: points.test).
    expect(usage).toMatchObject({ type: 'usage', delta: -4, blast_id: id });
    expect((await result(1)).status).toBe(200);
    expect((await history())[0]).toMatchObject({
      type: 'refund',
      delta: -2,
      description:
        'Koreksi hasil blast: refund ditarik kembali 2 poin (kini 1 gagal, 0 tanpa WhatsApp)',
    });
    expect((await result(2)).status).toBe(200);
    expect((await history())[0]).toMatchObject({
      type: 'refund',
      delta: 1,
      description: 'Koreksi hasil blast: refund ditambah 1 poin (kini 2 gagal, 0 tanpa WhatsApp)',
    });
  });
});
