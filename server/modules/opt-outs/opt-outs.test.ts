// The opt-out list through the admin's API (validation, duplicates, removal, search, pages,
// audit, access) and what it does to a manual blast: the listed numbers are left out before the
// charge, the answer counts them, a blast of only listed numbers is refused changing nothing, and
// a replay under the same Idempotency-Key answers the first result exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPT_OUT_MESSAGES } from '#common/opt-outs.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let client: Awaited<ReturnType<TestServer['createClient']>>;

beforeAll(async () => {
  server = await startServer({ deliveryWorker: false });
  client = await server.createClient();
  const funded = await server.api('PUT', `/api/admin/users/${client.user.id}`, {
    token: server.adminToken,
    body: { username: client.user.username, email: client.user.email, points: 20, is_active: true },
  });
  expect(funded.status).toBe(200);
});
afterAll(() => server?.close());

const admin = (method: string, url: string, body?: unknown) =>
  server.api(method, url, { token: server.adminToken, body });
const add = (number: string) => admin('POST', '/api/admin/opt-outs', { number });
const balance = async () =>
  (await server.api('GET', '/api/auth/me', { token: client.token })).body.points as number;
const blast = (numbers: string[], key?: string) =>
  server.api('POST', '/api/client/blast-requests', {
    token: client.token,
    body: { message: 'Promo', target_numbers: numbers, image_url: null },
    headers: key ? { 'idempotency-key': key } : {},
  });

describe('the admin edits the list', () => {
  it('adds a number as a blast takes it, stored in its normalised form and audited', async () => {
    const answer = await add('0812-3456-0001');
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({
      number: '6281234560001',
      source: 'admin',
      keyword: null,
      channel: null,
      created_at: expect.any(String),
      created_by: expect.any(String),
      created_by_username: expect.any(String),
    });
    const audit = await server.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'opt_out.add')
      .execute();
    expect(audit.map((a) => [a.target_type, a.target_id, a.actor_id])).toEqual([
      ['opt_out', '6281234560001', answer.body.created_by],
    ]);
  });

  it('refuses a missing or invalid number and one already listed, in Indonesian, changing nothing', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [{ number: '' }, OPT_OUT_MESSAGES.numberRequired],
        [{ number: '   ' }, OPT_OUT_MESSAGES.numberRequired],
        [{ number: '12' }, OPT_OUT_MESSAGES.invalidNumber],
        [{ number: 'abc' }, OPT_OUT_MESSAGES.invalidNumber],
        [{ number: '+1 415 555 0123 999' }, OPT_OUT_MESSAGES.invalidNumber],
      ] as const) {
        const answer = await admin('POST', '/api/admin/opt-outs', body);
        expectCleanError(answer, 422);
        expect(answer.body.errors, JSON.stringify(answer.body)).toEqual([
          { field: 'number', message: detail },
        ]);
      }
      expectCleanError(await admin('POST', '/api/admin/opt-outs', {}), 422);
      // The same number written another way is the same number.
      const again = await add('+62 812 3456 0001');
      expectCleanError(again, 409);
      expect(again.body.detail).toBe(OPT_OUT_MESSAGES.alreadyListed);
    });
  });

  it('lists newest first a page at a time, with counts, searchable by number', async () => {
    for (const n of ['0812345600022', '0812345600033', '0813999900044'])
      expect((await add(n)).status).toBe(201);
    const first = await admin('GET', '/api/admin/opt-outs?page=1&page_size=2');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.summary).toEqual({ total: 4, whatsapp: 0, admin: 4 });
    expect(first.body.items.map((o: { number: string }) => o.number)).toEqual([
      '62813999900044',
      '62812345600033',
    ]);
    const second = await admin('GET', '/api/admin/opt-outs?page=2&page_size=2');
    expect(second.body.items.map((o: { number: string }) => o.number)).toEqual([
      '62812345600022',
      '6281234560001',
    ]);
    // A search as the admin would type it: local form, spaced, or a part of the number.
    for (const [search, found] of [
      ['0812 3456 0002', ['62812345600022']],
      ['99990', ['62813999900044']],
      ['+62813', ['62813999900044']],
      ['tidak ada', []],
    ] as const) {
      const page = await admin('GET', `/api/admin/opt-outs?search=${encodeURIComponent(search)}`);
      expect(page.status).toBe(200);
      expect(
        page.body.items.map((o: { number: string }) => o.number),
        search,
      ).toEqual(found);
      expect(page.body.total, search).toBe(found.length);
      expect(page.body.summary.total, search).toBe(4);
    }
  });

  it('removes a number by either form, audited; an unknown one is 404', async () => {
    const removed = await admin('DELETE', '/api/admin/opt-outs/0813999900044');
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ detail: OPT_OUT_MESSAGES.removed });
    await expectUnchanged(server.database.db, async () => {
      for (const number of ['62813999900044', '081200000000', 'bukan-nomor']) {
        const answer = await admin('DELETE', `/api/admin/opt-outs/${number}`);
        expectCleanError(answer, 404);
        expect(answer.body.detail).toBe(OPT_OUT_MESSAGES.notListed);
      }
    });
    const audit = await server.database.db
      .selectFrom('audit_log')
      .select(['target_id', 'before_json'])
      .where('action', '=', 'opt_out.remove')
      .execute();
    expect(audit.map((a) => a.target_id)).toEqual(['62813999900044']);
    expect(JSON.parse(audit[0]!.before_json!)).toMatchObject({ source: 'admin' });
  });

  it('is the admin’s alone: a client is refused 403, no session 401', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [method, url, body] of [
        ['GET', '/api/admin/opt-outs', undefined],
        ['POST', '/api/admin/opt-outs', { number: '081299998888' }],
        ['DELETE', '/api/admin/opt-outs/6281234560001', undefined],
      ] as const) {
        expectCleanError(await server.api(method, url, { token: client.token, body }), 403);
        expectCleanError(await server.api(method, url, { body }), 401);
      }
    });
  });
});

describe('a manual blast to listed numbers', () => {
  it('charges only the rest and says how many were left out', async () => {
    const before = await balance();
    const answer = await blast(['081234560001', '0812345600022', '081277770001', '081277770001']);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.opted_out_count).toBe(2);
    expect(answer.body.target_numbers).toEqual(['6281277770001']);
    expect(answer.body.total_numbers).toBe(1);
    expect(answer.body.points_used).toBe(1);
    expect(answer.body.numbers).toHaveLength(1);
    expect(before - (await balance())).toBe(1);
    const stored = await server.api('GET', `/api/client/blast-requests/${answer.body.id}`, {
      token: client.token,
    });
    // The blast keeps the count: its detail is its creation's answer.
    expect(stored.body).toEqual(answer.body);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('answers nothing left out when no number is listed', async () => {
    const answer = await blast(['081277770002']);
    expect(answer.status).toBe(201);
    expect(answer.body.opted_out_count).toBe(0);
  });

  it('refuses a blast of listed numbers only, charging nothing and keeping nothing', async () => {
    await expectUnchanged(server.database.db, async () => {
      const answer = await blast(['081234560001', '+62 812 3456 00022'], 'semua-berhenti');
      expectCleanError(answer, 422);
      expect(answer.body.detail).toBe(OPT_OUT_MESSAGES.allOptedOut(2));
    });
  });

  it('answers a replay with the first answer, though the list changed since', async () => {
    const first = await blast(['081277770003', '081277770004', '081234560001'], 'ulang-1');
    expect(first.status).toBe(201);
    expect(first.body.opted_out_count).toBe(1);
    const before = await balance();
    expect((await add('081277770003')).status).toBe(201);
    expect((await add('081277770004')).status).toBe(201);
    const replay = await blast(['081277770003', '081277770004', '081234560001'], 'ulang-1');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(await balance()).toBe(before);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });
});
