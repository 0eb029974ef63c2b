// The all-clients totals (migration 004) and their months (005): the admin's figures follow every
// change of every client, from rows spread over stripes, and a database that had only the
// per-client counters, or no months, gets them filled in by the migration.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, freshDatabase, type TestServer } from '../test-helpers.ts';
import { stripeOf, STRIPES } from './counters.ts';
import { checkLedger } from './ledger-check.ts';
import { migrate, MIGRATIONS } from './migrate.ts';
import { fillMonths } from './migrations/005-month-counts.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.api('POST', '/api/admin/pricing', {
    token: server.adminToken,
    body: { tier_name: 'Dasar', min_points: 1, max_points: 1000, price_per_point: 600 },
  });
});
afterAll(() => server?.close());

const figures = async () => {
  const { api, adminToken: token } = server;
  const [dashboard, blasts, requests] = await Promise.all([
    api('GET', '/api/admin/dashboard', { token }),
    api('GET', '/api/admin/blast-requests?page=1&page_size=5', { token }),
    api('GET', '/api/admin/point-requests?page=1&page_size=5', { token }),
  ]);
  return {
    pending_blasts: dashboard.body.pending_blasts,
    completed_blasts: dashboard.body.total_blasts,
    pending_points: dashboard.body.pending_points,
    blast_total: blasts.body.total,
    blast_summary: blasts.body.summary,
    request_total: requests.body.total,
  };
};

/** The same figures counted from the rows themselves. */
async function counted() {
  const db = server.database.db;
  const per = async (table: 'blasts' | 'point_requests') =>
    Object.fromEntries(
      (
        await db
          .selectFrom(table)
          .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
          .groupBy('status')
          .execute()
      ).map((r) => [r.status, Number(r.n)]),
    ) as Record<string, number>;
  return { blasts: await per('blasts'), requests: await per('point_requests') };
}

async function client() {
  const made = await server.createClient();
  const { username, email } = made.user;
  const funded = await server.api('PUT', `/api/admin/users/${made.user.id}`, {
    token: server.adminToken,
    body: { username, email, points: 50, is_active: true },
  });
  expect(funded.status).toBe(200);
  return made;
}

const blast = (token: string, n: number) =>
  server.api('POST', '/api/client/blast-requests', {
    token,
    body: {
      message: 'Halo',
      target_numbers: Array.from(
        { length: n },
        (_, i) => `0812345678${String(i).padStart(2, '0')}`,
      ),
      image_url: null,
    },
  });

describe('all-clients totals', () => {
  it('follow blasts, results, top-ups and a deleted client, as the rows count them', async () => {
    const { api, adminToken: token } = server;
    // Clients until two of them keep their totals in different stripes.
    const clients = [await client(), await client()];
    while (stripeOf(clients[0]!.user.id) === stripeOf(clients.at(-1)!.user.id)) {
      clients.push(await client());
    }
    const [a, b] = [clients[0]!, clients.at(-1)!];
    const blastA = (await blast(a.token, 3)).body;
    await blast(a.token, 2);
    const blastB = (await blast(b.token, 4)).body;
    const requestA = await api('POST', '/api/client/point-requests', {
      token: a.token,
      body: { points_requested: 10, amount_paid: 6000, payment_proof_url: null },
    });
    await api('POST', '/api/client/point-requests', {
      token: b.token,
      body: { points_requested: 20, amount_paid: 12000, payment_proof_url: null },
    });
    expect(await figures()).toMatchObject({
      pending_blasts: 3,
      completed_blasts: 0,
      pending_points: 2,
      blast_total: 3,
      request_total: 2,
    });

    await api('POST', `/api/admin/blast-requests/${blastA.id}/result`, {
      token,
      body: { successful_count: 2, failed_count: 1, no_wa_count: 0, admin_notes: null },
    });
    await api('POST', `/api/admin/point-requests/${requestA.body.id}/approve`, { token });
    expect(await figures()).toMatchObject({
      pending_blasts: 2,
      completed_blasts: 1,
      pending_points: 1,
      blast_summary: { pending: 2, completed: 1, total: 3 },
    });
    const stripes = await server.database.db
      .selectFrom('blast_totals')
      .select('stripe')
      .distinct()
      .execute();
    expect(stripes.map((s) => s.stripe).sort()).toEqual(
      [stripeOf(a.user.id), stripeOf(b.user.id)].sort(),
    );

    // Client B goes with its pending blast and its pending request.
    expect((await api('DELETE', `/api/admin/users/${b.user.id}`, { token })).status).toBe(200);
    expect(await figures()).toMatchObject({
      pending_blasts: 1,
      completed_blasts: 1,
      pending_points: 0,
      blast_total: 2,
      request_total: 1,
    });
    expect(blastB.id).toBeTruthy();
    const rows = await counted();
    expect(rows.blasts).toEqual({ pending: 1, completed: 1 });
    expect(rows.requests).toEqual({ approved: 1 });
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('a total that drifts from the rows is a broken invariant', async () => {
    const db = server.database.db;
    await sql`update blast_totals set n = n + 1 where stripe = (select min(stripe) from blast_totals)`.execute(
      db,
    );
    expect((await checkLedger(db)).map((v) => v.invariant)).toContain(
      'summary counters equal the rows they count',
    );
    await sql`update blast_totals set n = n - 1 where stripe = (select min(stripe) from blast_totals)`.execute(
      db,
    );
    expect(await checkLedger(db)).toEqual([]);
    // A month that counts one blast too many, then one kept under a month it was not created in.
    const firstMonth = sql`(select min(month) from month_counts where list = 'blasts')`;
    await sql`update month_counts set n = n + 1 where list = 'blasts' and month = ${firstMonth}`.execute(
      db,
    );
    expect((await checkLedger(db)).map((v) => v.invariant)).toContain(
      'summary counters equal the rows they count',
    );
    await sql`update month_counts set n = n - 1 where list = 'blasts' and month = ${firstMonth}`.execute(
      db,
    );
    expect(await checkLedger(db)).toEqual([]);
    await sql`update month_counts set month = '1999-01' where list = 'point_requests'`.execute(db);
    expect((await checkLedger(db)).map((v) => v.invariant)).toContain(
      'summary counters equal the rows they count',
    );
    await fillMonths(db);
    expect(await checkLedger(db)).toEqual([]);
  });

  it('counts each blast and top-up request in its creation month, until its client goes', async () => {
    const { api, adminToken: token } = server;
    const doomed = await client();
    const kept = await client();
    const old = (await blast(doomed.token, 2)).body;
    await blast(doomed.token, 1);
    const mine = (await blast(kept.token, 1)).body;
    const request = (
      await api('POST', '/api/client/point-requests', {
        token: doomed.token,
        body: { points_requested: 10, amount_paid: 6000, payment_proof_url: null },
      })
    ).body;
    // As if the first blast and the request had been made in an earlier month (the months
    // recounted as migration 005 does): their decisions and the deletion of their client are
    // counted in that month.
    const earlier = '2024-02-29T23:59:59.999Z';
    const db = server.database.db;
    await db.updateTable('blasts').set({ created_at: earlier }).where('id', '=', old.id).execute();
    await db
      .updateTable('point_requests')
      .set({ created_at: earlier })
      .where('id', '=', request.id)
      .execute();
    await fillMonths(db);
    await api('POST', `/api/admin/blast-requests/${old.id}/result`, {
      token,
      body: { successful_count: 2, failed_count: 0, no_wa_count: 0, admin_notes: null },
    });
    await api('POST', `/api/admin/point-requests/${request.id}/approve`, { token });
    await api('POST', `/api/client/blast-requests/${mine.id}/cancel`, { token: kept.token });
    const months = async () =>
      (
        await db
          .selectFrom('month_counts')
          .select((eb) => ['list', 'status', eb.fn.sum<number>('n').as('n')])
          .where('month', '=', '2024-02')
          .groupBy(['list', 'status'])
          .orderBy('list')
          .orderBy('status')
          .execute()
      ).map((r) => [r.list, r.status, Number(r.n)]);
    expect(await months()).toEqual([
      ['blasts', 'completed', 1],
      ['blasts', 'pending', 0],
      ['point_requests', 'approved', 1],
      ['point_requests', 'pending', 0],
    ]);
    expect(await checkLedger(db)).toEqual([]);
    expect((await api('DELETE', `/api/admin/users/${doomed.user.id}`, { token })).status).toBe(200);
    expect(await months()).toEqual([
      ['blasts', 'completed', 0],
      ['blasts', 'pending', 0],
      ['point_requests', 'approved', 0],
      ['point_requests', 'pending', 0],
    ]);
    expect(await checkLedger(db)).toEqual([]);
  });

  it('stripes a client by its id, within the stripes that exist', () => {
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID());
    const used = new Set(ids.map(stripeOf));
    expect([...used].every((s) => Number.isInteger(s) && s >= 0 && s < STRIPES)).toBe(true);
    expect(used.size).toBe(STRIPES);
    expect(stripeOf('not-a-uuid-zz')).toBe(0);
  });
});

/** A client row written straight into a database that older migrations made. */
function insertClient(db: TestServer['database']['db'], id: string, at: string) {
  return db
    .insertInto('users')
    .values({
      id,
      username: id,
      email: `${id}@sebar.test`,
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

describe('migration 004', () => {
  it('fills the totals from the per-client counters of an existing database', async () => {
    const fresh = await freshDatabase();
    try {
      const db = fresh.handle.db;
      await migrate(fresh.handle, MIGRATIONS.slice(0, 3));
      for (const id of ['u1', 'u2']) await insertClient(db, id, new Date().toISOString());
      await db
        .insertInto('blast_counts')
        .values([
          { user_id: 'u1', status: 'pending', n: 2 },
          { user_id: 'u2', status: 'pending', n: 3 },
          { user_id: 'u2', status: 'completed', n: 4 },
        ])
        .execute();
      await db
        .insertInto('point_request_counts')
        .values([
          { user_id: 'u1', status: 'pending', n: 1, points: 10 },
          { user_id: 'u2', status: 'pending', n: 2, points: 30 },
        ])
        .execute();
      expect(await migrate(fresh.handle, MIGRATIONS.slice(0, 4))).toEqual(['004-global-totals']);
      const blasts = await db.selectFrom('blast_totals').selectAll().orderBy('status').execute();
      expect(blasts.map((r) => [r.status, Number(r.n)])).toEqual([
        ['completed', 4],
        ['pending', 5],
      ]);
      const requests = await db.selectFrom('point_request_totals').selectAll().execute();
      expect(requests.map((r) => [r.status, Number(r.n), Number(r.points)])).toEqual([
        ['pending', 3, 40],
      ]);
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });
});

describe('migration 005', () => {
  it("fills the months' counts from the blasts and top-up requests of an existing database", async () => {
    const fresh = await freshDatabase();
    try {
      const db = fresh.handle.db;
      await migrate(fresh.handle, MIGRATIONS.slice(0, 4));
      const at = '2025-12-31T23:59:59.999Z';
      await insertClient(db, 'u1', at);
      const sent = [
        ['2025-12-01T00:00:00.000Z', 'completed'],
        [at, 'pending'],
        [at, 'completed'],
        ['2026-01-01T00:00:00.000Z', 'pending'],
      ] as const;
      await db
        .insertInto('blasts')
        .values(
          sent.map(([created_at, status]) => ({
            id: crypto.randomUUID(),
            user_id: 'u1',
            message: 'Halo',
            image_url: null,
            total_numbers: 1,
            status,
            successful_count: 0,
            failed_count: 0,
            no_wa_count: 0,
            refund_points: 0,
            points_used: 1,
            admin_notes: null,
            created_at,
            processed_at: null,
          })),
        )
        .execute();
      await db
        .insertInto('point_requests')
        .values(
          (
            [
              ['2025-11-30T23:59:59.999Z', 'approved'],
              ['2025-11-02T00:00:00.000Z', 'approved'],
              ['2026-01-01T00:00:00.000Z', 'pending'],
            ] as const
          ).map(([created_at, status]) => ({
            id: crypto.randomUUID(),
            user_id: 'u1',
            points_requested: 10,
            amount_paid: 6000,
            status,
            payment_proof_url: null,
            created_at,
            processed_at: null,
            processed_by: null,
          })),
        )
        .execute();
      expect(await migrate(fresh.handle, MIGRATIONS.slice(0, 5))).toEqual(['005-month-counts']);
      const months = await db
        .selectFrom('month_counts')
        .selectAll()
        .orderBy('list')
        .orderBy('month')
        .orderBy('status')
        .execute();
      expect(months.map((r) => [r.list, r.month, r.status, r.stripe, Number(r.n)])).toEqual([
        ['blasts', '2025-12', 'completed', 0, 2],
        ['blasts', '2025-12', 'pending', 0, 1],
        ['blasts', '2026-01', 'pending', 0, 1],
        ['point_requests', '2025-11', 'approved', 0, 2],
        ['point_requests', '2026-01', 'pending', 0, 1],
      ]);
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });
});
