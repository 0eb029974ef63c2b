// Numbered pages of the blast and top-up lists: walking every page of every size gives each row
// once, newest first, whether a page is read from the front, from the back or from the middle
// (the ids of its window come from an index, then the rows by id), with or without a filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
const tokens: string[] = [];
beforeAll(async () => {
  server = await startServer();
  const { api, adminToken: token } = server;
  await api('POST', '/api/admin/pricing', {
    token,
    body: { tier_name: 'Dasar', min_points: 1, max_points: 1000, price_per_point: 600 },
  });
  for (const name of ['halaman-a', 'halaman-b']) {
    const client = await server.createClient({ username: name });
    const { username, email } = client.user;
    await api('PUT', `/api/admin/users/${client.user.id}`, {
      token,
      body: { username, email, points: 100, is_active: true },
    });
    tokens.push(client.token);
  }
  for (let i = 0; i < 13; i++) {
    const blast = await api('POST', '/api/client/blast-requests', {
      token: tokens[i % 2]!,
      body: { message: `Pesan ${i}`, target_numbers: ['081234567890'], image_url: null },
    });
    if (i % 3 === 0) {
      await api('POST', `/api/admin/blast-requests/${blast.body.id}/result`, {
        token,
        body: { successful_count: 1, failed_count: 0, no_wa_count: 0, admin_notes: null },
      });
    }
    const request = await api('POST', '/api/client/point-requests', {
      token: tokens[i % 2]!,
      body: { points_requested: i + 1, amount_paid: (i + 1) * 600, payment_proof_url: null },
    });
    if (i % 4 === 0) {
      await api('POST', `/api/admin/point-requests/${request.body.id}/approve`, { token });
    }
  }
});
afterAll(() => server?.close());

/** Every page of `url` at `size`, joined, as ids; and the total the pages reported. */
async function walk(url: string, token: string, size: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const answer = await server.api(
      'GET',
      `${url}${url.includes('?') ? '&' : '?'}page=${page}&page_size=${size}`,
      {
        token,
      },
    );
    expect(answer.status).toBe(200);
    totals.add(answer.body.total);
    ids.push(...answer.body.items.map((item: { id: string }) => item.id));
    if (page * size >= answer.body.total) break;
  }
  return { ids, totals: [...totals] };
}

/** The ids of `table`'s rows, newest first, read from the database itself. */
async function newestFirst(
  table: 'blasts' | 'point_requests',
  where: { user?: string; status?: string } = {},
) {
  let query = server.database.db
    .selectFrom(table)
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (where.user) {
    const user = server.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', where.user);
    query = query.where('user_id', 'in', user);
  }
  if (where.status) query = query.where('status', '=', where.status as never);
  return (await query.execute()).map((row) => row.id);
}

/** Walking the admin's `url` at every page size gives `expected`, with one total throughout. */
async function expectEveryPage(url: string, expected: string[]) {
  for (const size of [1, 2, 3, 4, 5, 7]) {
    const { ids, totals } = await walk(url, server.adminToken, size);
    expect({ url, size, ids, totals }).toEqual({
      url,
      size,
      ids: expected,
      totals: [expected.length],
    });
  }
}

describe('numbered pages', () => {
  it('of the admin lists give every row once, newest first, at every page size', async () => {
    const lists: [string, string[]][] = [
      ['/api/admin/blast-requests', await newestFirst('blasts')],
      [
        '/api/admin/blast-requests?status=completed',
        await newestFirst('blasts', { status: 'completed' }),
      ],
      [
        '/api/admin/blast-requests?status=pending',
        await newestFirst('blasts', { status: 'pending' }),
      ],
      ['/api/admin/point-requests', await newestFirst('point_requests')],
      [
        '/api/admin/point-requests?status=approved',
        await newestFirst('point_requests', { status: 'approved' }),
      ],
    ];
    for (const [url, expected] of lists) {
      expect(expected.length).toBeGreaterThan(3);
      await expectEveryPage(url, expected);
    }
  });

  it("of a client's own lists give its rows only, once each, newest first", async () => {
    const lists: [string, string[]][] = [
      ['/api/client/blast-requests', await newestFirst('blasts', { user: 'halaman-b' })],
      ['/api/client/point-requests', await newestFirst('point_requests', { user: 'halaman-b' })],
    ];
    for (const [url, expected] of lists) {
      expect(expected.length).toBe(6);
      for (const size of [1, 2, 4, 5]) {
        const { ids } = await walk(url, tokens[1]!, size);
        expect({ url, size, ids }).toEqual({ url, size, ids: expected });
      }
    }
  });

  it('past the last page is an empty page with the total', async () => {
    const answer = await server.api('GET', '/api/admin/blast-requests?page=99&page_size=5', {
      token: server.adminToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([]);
    expect(answer.body.total).toBe(13);
  });
});
