// The one balance limit, on both engines: every balance up to MAX_BALANCE is held exactly and
// stays editable; a top-up or an admin adjustment past it is refused, changing nothing. A refund
// gives back what its blast took, past the limit too (decision 255).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BALANCE, MAX_BALANCE_MESSAGE } from '#common/points.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { migrate, MIGRATIONS } from '#server/db/migrate.ts';
import { freshDatabase, startServer, type TestServer } from '#server/test/helpers.ts';
import { applyPoints } from './ledger.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const tier = await server.api('POST', '/api/admin/pricing', {
    token: server.adminToken,
    body: { tier_name: 'Basic', min_points: 1, max_points: 1000, price_per_point: 10 },
  });
  expect(tier.status).toBe(201);
});
afterAll(() => server?.close());

type Client = Awaited<ReturnType<TestServer['createClient']>>;

const edit = (client: Client, points: number, extra: Record<string, unknown> = {}) =>
  server.api('PUT', `/api/admin/users/${client.user.id}`, {
    token: server.adminToken,
    body: {
      username: client.user.username,
      email: client.user.email,
      points,
      is_active: true,
      ...extra,
    },
  });
const balance = async (client: Client) =>
  (await server.api('GET', '/api/auth/me', { token: client.token })).body.points as number;
const history = async (client: Client) =>
  (await server.api('GET', '/api/client/transactions', { token: client.token })).body;

describe('balances beyond 32 bits', () => {
  it('an admin sets 3,000,000,000 points, then edits and deactivates that client', async () => {
    const client = await server.createClient();
    const set = await edit(client, 3_000_000_000);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.points).toBe(3_000_000_000);
    expect(await balance(client)).toBe(3_000_000_000);
    expect((await history(client)).items[0]).toMatchObject({
      delta: 3_000_000_000,
      balance_after: 3_000_000_000,
    });

    const off = await edit(client, 3_000_000_000, {
      username: 'ganti-nama',
      is_active: false,
      expected_points: 3_000_000_000,
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ username: 'ganti-nama', is_active: false });
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('holds the maximum exactly; one point more is refused naming the limit', async () => {
    const client = await server.createClient();
    const most = await edit(client, MAX_BALANCE);
    expect(most.status, JSON.stringify(most.body)).toBe(200);
    expect(most.body.points).toBe(MAX_BALANCE);
    expect(await balance(client)).toBe(MAX_BALANCE);
    await expectUnchanged(server.database.db, async () => {
      for (const points of [MAX_BALANCE + 1, 10 ** 16, 2 ** 53 + 2]) {
        const over = await edit(client, points);
        expectCleanError(over, 422);
        expect(over.body.detail).toBe(MAX_BALANCE_MESSAGE);
      }
    });
  });
});

describe('a credit past the limit', () => {
  it('an approval is refused with 409 and the request stays pending', async () => {
    const client = await server.createClient();
    expect((await edit(client, MAX_BALANCE - 5)).status).toBe(200);
    const ask = (points: number) =>
      server.api('POST', '/api/client/point-requests', {
        token: client.token,
        body: { points_requested: points, amount_paid: points * 10, payment_proof_url: null },
      });
    const big = await ask(6);
    const fits = await ask(5);
    expect([big.status, fits.status]).toEqual([201, 201]);
    const approve = (id: string) =>
      server.api('POST', `/api/admin/point-requests/${id}/approve`, { token: server.adminToken });

    await expectUnchanged(server.database.db, async () => {
      const refused = await approve(big.body.id);
      expectCleanError(refused, 409);
      expect(refused.body.detail).toBe(MAX_BALANCE_MESSAGE);
    });
    expect((await approve(fits.body.id)).status).toBe(200);
    expect(await balance(client)).toBe(MAX_BALANCE);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('a refund is given back past it; the edit form then asks for a balance within it', async () => {
    const client = await server.createClient();
    expect((await edit(client, MAX_BALANCE)).status).toBe(200);
    const send = () =>
      server.api('POST', '/api/client/blast-requests', {
        token: client.token,
        body: { message: 'Halo', target_numbers: ['081200000001', '081200000002'] },
      });
    const [first, second] = [await send(), await send()];
    expect([first.status, second.status]).toEqual([201, 201]);
    // The admin tops the balance up to the limit again while the blasts wait.
    expect((await edit(client, MAX_BALANCE)).status).toBe(200);
    const result = await server.api('POST', `/api/admin/blast-requests/${first.body.id}/result`, {
      token: server.adminToken,
      body: { successful_count: 1, failed_count: 1, no_wa_count: 0, admin_notes: null },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.refund_points).toBe(1);
    const rejected = await server.api(
      'POST',
      `/api/admin/blast-requests/${second.body.id}/reject`,
      {
        token: server.adminToken,
      },
    );
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await balance(client)).toBe(MAX_BALANCE + 3);
    expect(await checkLedger(server.database.db)).toEqual([]);

    // Saved as it is, the balance past the limit is refused, naming it; within it, saved.
    await expectUnchanged(server.database.db, async () => {
      const over = await edit(client, MAX_BALANCE + 3, { expected_points: MAX_BALANCE + 3 });
      expectCleanError(over, 422);
      expect(over.body.detail).toBe(MAX_BALANCE_MESSAGE);
    });
    const within = await edit(client, MAX_BALANCE, { expected_points: MAX_BALANCE + 3 });
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });
});

describe('migration 007', () => {
  it('widens the balance of an existing database, keeping its ledger, to hold 2^31 and more', async () => {
    const fresh = await freshDatabase();
    const { db, engine } = fresh.handle;
    try {
      await migrate(fresh.handle, MIGRATIONS.slice(0, 2));
      // A client of 2,000,000,000 points, as the schema before held it (the old ledger's writes).
      const at = new Date().toISOString();
      await db
        .insertInto('users')
        .values({
          id: 'u1',
          username: 'lama',
          email: 'lama@sebar.test',
          password_hash: 'x',
          role: 'client',
          points: 2_000_000_000,
          ledger_seq: 1,
          is_active: 1,
          token_version: 0,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('point_transactions')
        .values({
          id: 't1',
          user_id: 'u1',
          seq: 1,
          type: 'adjustment',
          delta: 2_000_000_000,
          balance_after: 2_000_000_000,
          description: 'Penyesuaian',
          point_request_id: null,
          blast_id: null,
          created_at: at,
        })
        .execute();
      expect(await migrate(fresh.handle, MIGRATIONS.slice(0, 3))).toEqual(['007-bigint-balances']);
      // The later migrations too: today's ledger writes its entries' counts (010).
      await migrate(fresh.handle);
      const credited = await db.transaction().execute((trx) =>
        applyPoints(
          { db: trx, engine },
          {
            userId: 'u1',
            type: 'adjustment',
            delta: 2_000_000_000,
            description: 'Penyesuaian',
          },
        ),
      );
      expect(credited).toBe(4_000_000_000);
      const entries = await db
        .selectFrom('point_transactions')
        .select(['delta', 'balance_after'])
        .orderBy('seq')
        .execute();
      expect(entries).toEqual([
        { delta: 2_000_000_000, balance_after: 2_000_000_000 },
        { delta: 2_000_000_000, balance_after: 4_000_000_000 },
      ]);
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  });
});
