// Top-up requests over HTTP: the points limit is the shared one, with the same message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPUP_INTEGER_MESSAGE, TOPUP_MAX_MESSAGE, TOPUP_MAX_POINTS } from '#common/points.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.api('POST', '/api/admin/pricing', {
    token: server.adminToken,
    body: { tier_name: 'Basic', min_points: 1, max_points: 100, price_per_point: 1 },
  });
});
afterAll(() => server?.close());

describe('POST /api/client/point-requests', () => {
  it(`refuses more than ${TOPUP_MAX_POINTS} points with '${TOPUP_MAX_MESSAGE}'`, async () => {
    const client = await server.createClient();
    const ask = (points: number) =>
      server.api('POST', '/api/client/point-requests', {
        token: client.token,
        body: { points_requested: points, amount_paid: points, payment_proof_url: null },
      });
    const over = await ask(TOPUP_MAX_POINTS + 1);
    expect(over.status).toBe(422);
    expect(over.body.detail).toBe(TOPUP_MAX_MESSAGE);
    const most = await ask(TOPUP_MAX_POINTS);
    expect(most.status, JSON.stringify(most.body)).toBe(201);
    expect(most.body.points_requested).toBe(TOPUP_MAX_POINTS);
  });

  it(`refuses a fraction of a point with '${TOPUP_INTEGER_MESSAGE}', changing nothing`, async () => {
    const client = await server.createClient();
    await expectUnchanged(server.database.db, async () => {
      const half = await server.api('POST', '/api/client/point-requests', {
        token: client.token,
        body: { points_requested: 1.5, amount_paid: 2, payment_proof_url: null },
      });
      expectCleanError(half, 422);
      expect(half.body.detail).toBe(TOPUP_INTEGER_MESSAGE);
    });
  });

  it('names a negative amount paid as such, not as a field left empty', async () => {
    const client = await server.createClient();
    await expectUnchanged(server.database.db, async () => {
      const negative = await server.api('POST', '/api/client/point-requests', {
        token: client.token,
        body: { points_requested: 10, amount_paid: -5, payment_proof_url: null },
      });
      expectCleanError(negative, 422);
      expect(negative.body.detail).toBe('Jumlah bayar tidak boleh negatif');
    });
  });
});

describe('the ledger description of an approved top-up', () => {
  it("writes the points as id-ID does: 'Top up 2.000 poin disetujui admin'", async () => {
    const client = await server.createClient();
    const request = await server.api('POST', '/api/client/point-requests', {
      token: client.token,
      body: { points_requested: 2000, amount_paid: 2000, payment_proof_url: null },
    });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    const approve = await server.api(
      'POST',
      `/api/admin/point-requests/${request.body.id}/approve`,
      { token: server.adminToken },
    );
    expect(approve.status, JSON.stringify(approve.body)).toBe(200);
    const ledger = await server.api('GET', '/api/client/transactions', { token: client.token });
    expect(ledger.body.items).toContainEqual(
      expect.objectContaining({ description: 'Top up 2.000 poin disetujui admin', blast_id: null }),
    );
  });
});
