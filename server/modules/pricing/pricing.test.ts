// Price tiers over HTTP: CRUD, the overlap and min-max rules, and the list clients read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectSpecFields, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let admin = '';
let client = '';
const ids: Record<string, string> = {};
beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
  client = (await server.createClient()).token;
});
afterAll(() => server?.close());

const tier = (
  tier_name: string,
  min_points: number,
  max_points: number,
  price_per_point = 500,
) => ({
  tier_name,
  min_points,
  max_points,
  price_per_point,
});

describe('price tiers', () => {
  it('creates tiers with SPEC fields and lists them by min_points, for the admin and clients', async () => {
    for (const body of [tier('Menengah', 101, 500, 550.5), tier('Dasar', 1, 100, 600)]) {
      const created = await server.api('POST', '/api/admin/pricing', { token: admin, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expectSpecFields(created.body, 'pricingTier');
      expect(created.body).toMatchObject(body);
      ids[body.tier_name] = created.body.id;
    }
    const adminList = await server.api('GET', '/api/admin/pricing', { token: admin });
    const clientList = await server.api('GET', '/api/pricing', { token: client });
    expect(clientList.status).toBe(200);
    expect(clientList.body).toEqual(adminList.body);
    expect(clientList.body.map((t: any) => [t.tier_name, t.price_per_point])).toEqual([
      ['Dasar', 600],
      ['Menengah', 550.5],
    ]);
    for (const t of clientList.body) expectSpecFields(t, 'pricingTier');
  });

  it('refuses an overlapping range, naming the tier it collides with', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [body, name] of [
        [tier('Baru', 50, 60), 'Dasar'],
        [tier('Baru', 100, 100), 'Dasar'],
        [tier('Baru', 500, 900), 'Menengah'],
        [tier('Baru', 1, 1000), 'Dasar'],
      ] as const) {
        const answer = await server.api('POST', '/api/admin/pricing', {
          token: admin,
          body: { ...body, price_per_point: 500 },
        });
        expectCleanError(answer, 409);
        expect(answer.body.detail).toBe(`Rentang poin bertabrakan dengan tier "${name}"`);
      }
      const moved = await server.api('PUT', `/api/admin/pricing/${ids.Dasar}`, {
        token: admin,
        body: tier('Dasar', 1, 150, 600),
      });
      expectCleanError(moved, 409);
      expect(moved.body.detail).toBe('Rentang poin bertabrakan dengan tier "Menengah"');
    });
  });

  it('refuses min above max and non-positive values', async () => {
    await expectUnchanged(server.database.db, async () => {
      const flipped = await server.api('POST', '/api/admin/pricing', {
        token: admin,
        body: tier('Terbalik', 900, 800, 500),
      });
      expectCleanError(flipped, 422);
      expect(flipped.body.detail).toBe('Minimum poin tidak boleh lebih besar dari maksimum poin');
      for (const body of [
        tier('Nol', 0, 10, 500),
        tier('Harga', 600, 700, 0),
        tier('Pecahan', 600.5, 700, 500),
        tier('  ', 600, 700, 500),
      ]) {
        expectCleanError(
          await server.api('POST', '/api/admin/pricing', { token: admin, body }),
          422,
        );
      }
    });
  });

  it('edits a tier (its own range is no collision) and deletes it', async () => {
    const edited = await server.api('PUT', `/api/admin/pricing/${ids.Dasar}`, {
      token: admin,
      body: tier('Dasar Baru', 1, 100, 650),
    });
    expect(edited.status).toBe(200);
    expectSpecFields(edited.body, 'pricingTier');
    expect(edited.body).toMatchObject({
      id: ids.Dasar,
      tier_name: 'Dasar Baru',
      price_per_point: 650,
    });
    const removed = await server.api('DELETE', `/api/admin/pricing/${ids.Dasar}`, { token: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.detail).toBe('Tier harga berhasil dihapus');
    for (const method of ['PUT', 'DELETE']) {
      const gone = await server.api(method, `/api/admin/pricing/${ids.Dasar}`, {
        token: admin,
        body: method === 'PUT' ? tier('X', 1, 2, 3) : undefined,
      });
      expectCleanError(gone, 404);
      expect(gone.body.detail).toBe('Tier harga tidak ditemukan');
    }
    // The freed range can be used again.
    const reused = await server.api('POST', '/api/admin/pricing', {
      token: admin,
      body: tier('Kecil', 1, 100, 700),
    });
    expect(reused.status).toBe(201);
  });

  it('is read-only for clients', async () => {
    await expectUnchanged(server.database.db, async () => {
      expectCleanError(
        await server.api('POST', '/api/admin/pricing', {
          token: client,
          body: tier('K', 900, 950, 1),
        }),
        403,
      );
      expectCleanError(
        await server.api('DELETE', `/api/admin/pricing/${ids.Menengah}`, { token: client }),
        403,
      );
      expectCleanError(await server.api('GET', '/api/admin/pricing', { token: client }), 403);
      expectCleanError(await server.api('GET', '/api/pricing'), 401);
    });
  });
});
