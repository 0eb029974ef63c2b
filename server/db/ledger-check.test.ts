// The ledger checker passes on a real flow and names the invariant a corruption breaks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startServer, type TestServer } from '#server/test/helpers.ts';
import { checkLedger } from './ledger-check.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function seedFlow() {
  const { api, adminToken } = server;
  await api('POST', '/api/admin/pricing', {
    token: adminToken,
    body: { tier_name: 'Dasar', min_points: 1, max_points: 1000, price_per_point: 600 },
  });
  const client = await server.createClient();
  const request = await api('POST', '/api/client/point-requests', {
    token: client.token,
    body: { points_requested: 20, amount_paid: 12000, payment_proof_url: null },
  });
  await api('POST', `/api/admin/point-requests/${request.body.id}/approve`, { token: adminToken });
  const blast = await api('POST', '/api/client/blast-requests', {
    token: client.token,
    body: {
      message: 'Halo',
      target_numbers: ['081234567890', '081234567891', '081234567892'],
      image_url: null,
    },
  });
  await api('POST', `/api/admin/blast-requests/${blast.body.id}/result`, {
    token: adminToken,
    body: { successful_count: 1, failed_count: 1, no_wa_count: 1, admin_notes: null },
  });
  return client;
}

describe('ledger check', () => {
  it('holds after a real flow, then names each corruption', async () => {
    const client = await seedFlow();
    expect(await checkLedger(server.database.db)).toEqual([]);

    const db = server.database.db;
    await sql`update users set points = points + 5 where id = ${client.user.id}`.execute(db);
    const broken = (await checkLedger(db)).map((v) => v.invariant);
    expect(broken).toContain('balance equals the sum of entries');

    await sql`update users set points = points - 5 where id = ${client.user.id}`.execute(db);
    await sql`delete from point_transactions where user_id = ${client.user.id} and type = 'refund'`.execute(
      db,
    );
    const after = (await checkLedger(db)).map((v) => v.invariant);
    expect(after).toContain('ledger chain has no gap');
    expect(after).toContain(
      'refunds of a blast add up to its failed + no WA count (all points when a manual blast is rejected or cancelled)',
    );
  });

  it.runIf(engine === 'sqlite')(
    'npm run ledger:check exits non-zero naming the broken invariant',
    async () => {
      const run = promisify(execFile);
      const file = server.database.file!;
      const failed = await run('node', [
        '--import',
        'tsx',
        'server/db/ledger-check-cli.ts',
        file,
      ]).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain('balance equals the sum of entries');
    },
  );
});
