// The whole product over HTTP as a new user would script it: the admin sets up, a client tops
// up and blasts, the admin enters and re-edits results; every figure is checked against SPEC's
// rules and against our own running model of each client's ledger, and the ledger holds throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jakartaDayRange } from '#common/dashboard.ts';
import { splitNumbers } from '#common/phone.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { startServer, type TestServer } from './helpers.ts';
import { expectCleanError, expectSpecFields } from './spec.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

type EntryType = 'topup' | 'usage' | 'refund' | 'adjustment';

/** Our own account of a client's balance: each change the SPEC rules say must happen. */
class Account {
  balance = 0;
  entries: { type: EntryType; delta: number }[] = [];
  token = '';
  id = '';
  apply(type: EntryType, delta: number) {
    if (delta === 0) return;
    this.balance += delta;
    expect(this.balance, 'model balance never negative').toBeGreaterThanOrEqual(0);
    this.entries.push({ type, delta });
  }
}

const budi = new Account();
const siti = new Account();
const joko = new Account();
let adminToken = '';
const blasts: Record<string, any> = {};
const requests: Record<string, any> = {};

async function call(
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  status = 200,
  headers?: Record<string, string>,
) {
  const answer = await server.api(method, url, { token, body, headers });
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

async function ledgerHolds() {
  expect(await checkLedger(server.database.db)).toEqual([]);
}

/** The client's balance as the server reports it everywhere, and its ledger as our model has it. */
async function expectAccount(account: Account) {
  const me = await call('GET', '/api/auth/me', account.token);
  expect(me.points).toBe(account.balance);
  const dashboard = await call('GET', '/api/client/dashboard', account.token);
  expect(dashboard.current_points).toBe(account.balance);
  const page = await call('GET', '/api/client/transactions?page_size=100', account.token);
  expect(page.total).toBe(account.entries.length);
  const oldestFirst = [...page.items].reverse();
  expect(oldestFirst.map((t: any) => ({ type: t.type, delta: t.delta }))).toEqual(account.entries);
  // SPEC: walk from oldest to newest, adding topup and refund and subtracting usage.
  let running = 0;
  for (const t of oldestFirst) {
    expectSpecFields(t, 'transaction');
    running += t.type === 'usage' ? -t.amount : t.amount;
    expect(t.delta).toBe(t.type === 'usage' ? -t.amount : t.amount);
    expect(t.balance_after).toBe(running);
  }
  expect(running).toBe(account.balance);
  const sum = (type: EntryType) =>
    account.entries.filter((e) => e.type === type).reduce((n, e) => n + e.delta, 0);
  expect(page.summary).toEqual({
    total_topup: sum('topup'),
    total_usage: 0 - sum('usage'),
    total_refund: sum('refund'),
    total_adjustment: sum('adjustment'),
    count: account.entries.length,
    current_points: account.balance,
  });
  await ledgerHolds();
}

/** `count` distinct valid local numbers 08xx..., never colliding with another series. */
const series = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `08${prefix}${String(i).padStart(8, '0')}`);

async function blast(account: Account, targets: string[], extra: Record<string, unknown> = {}) {
  const created = await call(
    'POST',
    '/api/client/blast-requests',
    account.token,
    { message: 'Promo akhir tahun', target_numbers: targets, image_url: null, ...extra },
    201,
  );
  expectSpecFields(created, 'blast');
  account.apply('usage', -created.points_used);
  return created;
}

async function result(
  id: string,
  counts: [number, number, number],
  status = 200,
  notes: string | null = null,
) {
  const [s, f, n] = counts;
  return call(
    'POST',
    `/api/admin/blast-requests/${id}/result`,
    adminToken,
    { successful_count: s, failed_count: f, no_wa_count: n, admin_notes: notes },
    status,
  );
}

function expectCounts(b: any, s: number, f: number, n: number) {
  expect([b.successful_count, b.failed_count, b.no_wa_count]).toEqual([s, f, n]);
  const statuses = Object.values(b.number_statuses);
  expect(statuses.filter((x) => x === 'success')).toHaveLength(s);
  expect(statuses.filter((x) => x === 'failed')).toHaveLength(f);
  expect(statuses.filter((x) => x === 'no_wa')).toHaveLength(n);
}

describe('a walk through the whole product', () => {
  it('the admin signs in and gets SPEC fields', async () => {
    const answer = await call('POST', '/api/auth/login', null, {
      email: 'ADMIN@sebar.test ',
      password: 'admin-rahasia-123',
    });
    expectSpecFields(answer, 'login');
    expectSpecFields(answer.user, 'loginUser');
    expect(answer.token_type).toBe('bearer');
    expect(answer.user.role).toBe('super_admin');
    adminToken = answer.access_token;
    const me = await call('GET', '/api/auth/me', adminToken);
    expect(me.email).toBe('admin@sebar.test');
    const dashboard = await call('GET', '/api/admin/dashboard', adminToken);
    expectSpecFields(dashboard, 'adminDashboard');
    expect(dashboard).toEqual({
      total_users: 0,
      total_blasts: 0,
      pending_blasts: 0,
      pending_points: 0,
    });
  });

  it('sets payment details (images off by default)', async () => {
    const initial = await call('GET', '/api/admin/settings', adminToken);
    expectSpecFields(initial, 'settings');
    expect(initial.allow_images).toBe(false);
    const saved = await call('POST', '/api/admin/settings', adminToken, {
      account_number: ' 1234567890 ',
      account_name: 'PT Sebar Pesan',
      bank_name: 'BCA',
      barcode_url: null,
      qr_code_file: null,
      qr_data_url: null,
    });
    expectSpecFields(saved, 'settings');
    expect(saved).toEqual({
      account_number: '1234567890',
      account_name: 'PT Sebar Pesan',
      bank_name: 'BCA',
      barcode_url: null,
      qr_code_file: null,
      qr_data_url: null,
      allow_images: false,
    });
    expect(await call('GET', '/api/admin/settings', adminToken)).toEqual(saved);
  });

  it('sets price tiers', async () => {
    const tiers = [
      { tier_name: 'Menengah', min_points: 101, max_points: 500, price_per_point: 550.25 },
      { tier_name: 'Dasar', min_points: 1, max_points: 100, price_per_point: 600 },
      { tier_name: 'Besar', min_points: 501, max_points: 1000, price_per_point: 500 },
    ];
    for (const tier of tiers) {
      const created = await call('POST', '/api/admin/pricing', adminToken, tier, 201);
      expectSpecFields(created, 'pricingTier');
      expect(created).toMatchObject(tier);
    }
    const list = await call('GET', '/api/admin/pricing', adminToken);
    expect(list.map((t: any) => t.tier_name)).toEqual(['Dasar', 'Menengah', 'Besar']);
  });

  it('creates clients, who sign in (email case-insensitive)', async () => {
    for (const [account, username, email] of [
      [budi, 'budi', 'Budi@Example.test'],
      [siti, 'siti', 'siti@example.test'],
      [joko, 'joko', 'joko@example.test'],
    ] as const) {
      const created = await call(
        'POST',
        '/api/admin/users',
        adminToken,
        { username, email, password: 'rahasia-klien', role: 'client' },
        201,
      );
      expectSpecFields(created, 'clientUser');
      expect(created).toMatchObject({
        username,
        email: email.toLowerCase(),
        points: 0,
        is_active: true,
        role: 'client',
      });
      account.id = created.id;
      const session = await call('POST', '/api/auth/login', null, {
        email: email.toUpperCase(),
        password: 'rahasia-klien',
      });
      expect(session.user).toMatchObject({ id: created.id, role: 'client', points: 0 });
      account.token = session.access_token;
    }
    await expectAccount(budi);
  });

  it('the client reads payment details and tiers, then requests top-ups at the tier price', async () => {
    const settings = await call('GET', '/api/public/settings', budi.token);
    expectSpecFields(settings, 'settings');
    expect(settings.bank_name).toBe('BCA');
    const tiers = await call('GET', '/api/pricing', budi.token);
    for (const tier of tiers) expectSpecFields(tier, 'pricingTier');
    expect(tiers.map((t: any) => [t.min_points, t.max_points])).toEqual([
      [1, 100],
      [101, 500],
      [501, 1000],
    ]);

    // A price the client chose itself is refused, naming the right one.
    const cheap = await server.api('POST', '/api/client/point-requests', {
      token: budi.token,
      body: { points_requested: 121, amount_paid: 100, payment_proof_url: null },
    });
    expectCleanError(cheap, 422);
    expect(cheap.body.detail).toBe('Jumlah bayar tidak sesuai daftar harga (seharusnya Rp66.580)');

    // 121 x 550.25 = 66580.25, rounded; 33 x 600; above the last tier's max, the last tier's rate.
    for (const [name, points, amount, proof] of [
      ['approve', 121, 66580, 'https://drive.example.test/bukti.png'],
      ['reject', 33, 19800, ''],
      ['pending', 1500, 750000, null],
    ] as const) {
      const created = await call(
        'POST',
        '/api/client/point-requests',
        budi.token,
        { points_requested: points, amount_paid: amount, payment_proof_url: proof },
        201,
      );
      expectSpecFields(created, 'pointRequest');
      expect(created).toMatchObject({
        user_id: budi.id,
        username: 'budi',
        points_requested: points,
        amount_paid: amount,
        status: 'pending',
        processed_at: null,
        payment_proof_url: proof || null,
      });
      requests[name] = created;
    }
    expect((await call('GET', '/api/auth/me', budi.token)).points).toBe(0);
    await ledgerHolds();
  });

  it('the admin approves one and rejects one; a second decision answers 409', async () => {
    const approved = await call(
      'POST',
      `/api/admin/point-requests/${requests.approve.id}/approve`,
      adminToken,
    );
    expectSpecFields(approved, 'pointRequest');
    expect(approved.status).toBe('approved');
    expect(approved.processed_at).not.toBeNull();
    budi.apply('topup', 121);
    const rejected = await call(
      'POST',
      `/api/admin/point-requests/${requests.reject.id}/reject`,
      adminToken,
    );
    expect(rejected.status).toBe('rejected');

    for (const [id, action] of [
      [requests.approve.id, 'approve'],
      [requests.approve.id, 'reject'],
      [requests.reject.id, 'approve'],
    ]) {
      const again = await server.api('POST', `/api/admin/point-requests/${id}/${action}`, {
        token: adminToken,
      });
      expectCleanError(again, 409);
      expect(again.body.detail).toBe('Request poin sudah diproses sebelumnya');
    }
    await expectAccount(budi);
    expect(budi.balance).toBe(121);

    const summary = { pending: 1, approved: 1, rejected: 1, approved_points: 121 };
    const mine = await call('GET', '/api/client/point-requests', budi.token);
    expectSpecFields(mine, 'page');
    expect(mine.summary).toEqual(summary);
    expect(mine.total).toBe(3);
    expect(mine.items.map((r: any) => r.status)).toEqual(['pending', 'rejected', 'approved']);
    const all = await call('GET', '/api/admin/point-requests?status=pending', adminToken);
    expect(all.summary).toEqual(summary);
    expect(all.total).toBe(1);
    expect(all.items[0].id).toBe(requests.pending.id);
    expect(await call('GET', '/api/client/point-requests', siti.token)).toMatchObject({
      total: 0,
      items: [],
      summary: { pending: 0, approved: 0, rejected: 0, approved_points: 0 },
    });
  });

  it('a blast with invalid numbers is refused whole and charges nothing', async () => {
    const parts = splitNumbers('081234567801\n12345, abc;0812  +6281234567802');
    expect(parts).toEqual(['081234567801', '12345', 'abc', '0812', '+6281234567802']);
    const answer = await server.api('POST', '/api/client/blast-requests', {
      token: budi.token,
      body: { message: 'Halo', target_numbers: parts, image_url: null },
    });
    expectCleanError(answer, 422);
    expect(answer.body.detail).toBe('3 nomor tidak valid. Mohon perbaiki format nomor');
    // A number too long to be a phone number is one more invalid number, not another error.
    const tooLong = await server.api('POST', '/api/client/blast-requests', {
      token: budi.token,
      body: { message: 'Halo', target_numbers: ['081234567801', '0'.repeat(60)] },
    });
    expectCleanError(tooLong, 422);
    expect(tooLong.body.detail).toBe('1 nomor tidak valid. Mohon perbaiki format nomor');
    const list = await call('GET', '/api/client/blast-requests', budi.token);
    expect(list.total).toBe(0);
    await expectAccount(budi);
  });

  it('a blast charges its unique valid numbers once, across every allowed format', async () => {
    const text = [
      '+62 812-3456-7801', // 6281234567801
      '6281234567802',
      '081234567803',
      '81234567804', // bare 8
      '0812 3456 7801', // duplicate of the first
      '+6281234567802', // duplicate of the second
      '8123-4567-803', // duplicate of the third
      '081234567804', // duplicate of the fourth
      '0856-1234-5678',
    ].join('\n');
    const created = await blast(budi, text.split('\n'));
    expect(created.target_numbers).toEqual([
      '6281234567801',
      '6281234567802',
      '6281234567803',
      '6281234567804',
      '6285612345678',
    ]);
    expect(created).toMatchObject({
      user_id: budi.id,
      username: 'budi',
      message: 'Promo akhir tahun',
      image_url: null,
      status: 'pending',
      points_used: 5,
      successful_count: 0,
      failed_count: 0,
      no_wa_count: 0,
      refund_points: 0,
      admin_notes: null,
      results: { successful_count: 0, failed_count: 0 },
      number_statuses: { 0: 'pending', 1: 'pending', 2: 'pending', 3: 'pending', 4: 'pending' },
    });
    blasts.a = created;
    expect(budi.balance).toBe(116);
    await expectAccount(budi);
    const seen = await call('GET', `/api/client/blast-requests/${created.id}`, budi.token);
    expect(seen).toEqual(created);
  });

  it('the admin enters results: refund = failed + no WA, statuses by position', async () => {
    const over = await server.api('POST', `/api/admin/blast-requests/${blasts.a.id}/result`, {
      token: adminToken,
      body: { successful_count: 4, failed_count: 1, no_wa_count: 1, admin_notes: null },
    });
    expectCleanError(over, 422);
    expect(over.body.detail).toBe('Total hasil (6) melebihi total nomor (5)!');
    expectCleanError(
      await server.api('POST', `/api/admin/blast-requests/${blasts.a.id}/result`, {
        token: adminToken,
        body: { successful_count: 0, failed_count: 0, no_wa_count: 0, admin_notes: null },
      }),
      422,
    );

    const done = await result(blasts.a.id, [2, 2, 1], 200, 'Terkirim sebagian');
    budi.apply('refund', 3);
    expectSpecFields(done, 'blast');
    expectSpecFields(done.results, 'blastResults');
    expect(done).toMatchObject({
      status: 'completed',
      refund_points: 3,
      admin_notes: 'Terkirim sebagian',
      results: { successful_count: 2, failed_count: 2 },
      number_statuses: { 0: 'success', 1: 'success', 2: 'failed', 3: 'failed', 4: 'no_wa' },
    });
    expect(done.processed_at).not.toBeNull();
    expect(budi.balance).toBe(119);
    await expectAccount(budi);
  });

  it('re-edits up and down settle only the difference', async () => {
    const up = await result(blasts.a.id, [1, 2, 2]);
    budi.apply('refund', 1);
    expect(up.refund_points).toBe(4);
    expectCounts(up, 1, 2, 2);
    await expectAccount(budi);
    const down = await result(blasts.a.id, [4, 1, 0]);
    budi.apply('refund', -3);
    expect(down.refund_points).toBe(1);
    // Saved statuses stay where the counts leave room (the first success, a failure); the rest
    // are assigned in order.
    expect(up.number_statuses).toEqual({
      0: 'success',
      1: 'no_wa',
      2: 'failed',
      3: 'failed',
      4: 'no_wa',
    });
    expect(down.number_statuses).toEqual({
      0: 'success',
      1: 'success',
      2: 'failed',
      3: 'success',
      4: 'success',
    });
    expect(budi.balance).toBe(117);
    await expectAccount(budi);
    // A smaller sum leaves the rest pending.
    const partial = await result(blasts.a.id, [1, 1, 0]);
    budi.apply('refund', 0);
    expect(partial.number_statuses).toEqual({
      0: 'success',
      1: 'pending',
      2: 'failed',
      3: 'pending',
      4: 'pending',
    });
    expect(partial.refund_points).toBe(1);
    await expectAccount(budi);
  });

  it('per-number status saves: counts follow, the refund difference is settled', async () => {
    const saved = await call(
      'POST',
      `/api/admin/blast-requests/${blasts.a.id}/number-statuses`,
      adminToken,
      { number_statuses: { 0: 'no_wa', 1: 'failed', 3: 'success' } },
    );
    expectSpecFields(saved, 'blast');
    expect(saved.number_statuses).toEqual({
      0: 'no_wa',
      1: 'failed',
      2: 'failed',
      3: 'success',
      4: 'pending',
    });
    expectCounts(saved, 1, 2, 1);
    expect(saved.refund_points).toBe(3);
    expect(saved.status).toBe('completed');
    budi.apply('refund', 2);
    expect(budi.balance).toBe(119);
    await expectAccount(budi);
    const empty = await server.api(
      'POST',
      `/api/admin/blast-requests/${blasts.a.id}/number-statuses`,
      { token: adminToken, body: { number_statuses: {} } },
    );
    expectCleanError(empty, 422);
    expect(empty.body.detail).toBe('Tidak ada perubahan status untuk disimpan');
    const outOfRange = await server.api(
      'POST',
      `/api/admin/blast-requests/${blasts.a.id}/number-statuses`,
      { token: adminToken, body: { number_statuses: { 5: 'success' } } },
    );
    expectCleanError(outOfRange, 422);
    const admin = await call('GET', `/api/admin/blast-requests/${blasts.a.id}`, adminToken);
    expect(admin).toEqual(saved);
  });

  it('taking back more than the client holds answers 409 and changes nothing', async () => {
    blasts.b = await blast(budi, series('13', 100));
    expect(blasts.b.points_used).toBe(100);
    await result(blasts.b.id, [0, 100, 0]);
    budi.apply('refund', 100);
    expect(budi.balance).toBe(119);
    blasts.c = await blast(budi, series('14', budi.balance));
    expect(budi.balance).toBe(0);
    await expectAccount(budi);

    const before = await call('GET', `/api/admin/blast-requests/${blasts.b.id}`, adminToken);
    const takeBack = await result(blasts.b.id, [100, 0, 0], 409);
    expect(takeBack.detail).toBe(
      'Poin klien tidak cukup untuk menarik kembali refund. Hasil blast tidak diubah.',
    );
    const perNumber = await server.api(
      'POST',
      `/api/admin/blast-requests/${blasts.b.id}/number-statuses`,
      { token: adminToken, body: { number_statuses: { 0: 'success' } } },
    );
    expectCleanError(perNumber, 409);
    expect(await call('GET', `/api/admin/blast-requests/${blasts.b.id}`, adminToken)).toEqual(
      before,
    );
    await expectAccount(budi);
  });

  it('the admin rejects a pending blast: full refund; then a partial take-back fits', async () => {
    const rejected = await call(
      'POST',
      `/api/admin/blast-requests/${blasts.c.id}/reject`,
      adminToken,
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      refund_points: 119,
      results: { successful_count: 0, failed_count: 0 },
    });
    budi.apply('refund', 119);
    await expectAccount(budi);
    for (const [url, detail] of [
      [`/api/admin/blast-requests/${blasts.c.id}/reject`, null],
      [`/api/admin/blast-requests/${blasts.c.id}/result`, 'Blast request ini sudah ditolak'],
    ] as const) {
      const answer = await server.api('POST', url, {
        token: adminToken,
        body: url.endsWith('result')
          ? { successful_count: 1, failed_count: 0, no_wa_count: 0, admin_notes: null }
          : undefined,
      });
      expectCleanError(answer, 409);
      if (detail) expect(answer.body.detail).toBe(detail);
    }
    const cancelRejected = await server.api(
      'POST',
      `/api/client/blast-requests/${blasts.c.id}/cancel`,
      { token: budi.token },
    );
    expectCleanError(cancelRejected, 409);

    const half = await result(blasts.b.id, [50, 50, 0]);
    budi.apply('refund', -50);
    expect(half.refund_points).toBe(50);
    expect(budi.balance).toBe(69);
    await expectAccount(budi);
  });

  it('the client cancels its own pending blast: full refund', async () => {
    blasts.d = await blast(budi, series('15', 3));
    const cancelled = await call(
      'POST',
      `/api/client/blast-requests/${blasts.d.id}/cancel`,
      budi.token,
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', refund_points: 3 });
    budi.apply('refund', 3);
    await expectAccount(budi);
    expectCleanError(
      await server.api('POST', `/api/client/blast-requests/${blasts.d.id}/cancel`, {
        token: budi.token,
      }),
      409,
    );
    const late = await server.api('POST', `/api/admin/blast-requests/${blasts.d.id}/result`, {
      token: adminToken,
      body: { successful_count: 1, failed_count: 0, no_wa_count: 0, admin_notes: null },
    });
    expectCleanError(late, 409);
    expect(late.body.detail).toBe('Blast request ini sudah dibatalkan');
    await expectAccount(budi);
  });

  it('idempotent creation: same key answers the same blast and charges once', async () => {
    const body = {
      message: 'Sekali saja',
      target_numbers: ['081277700001', '081277700002'],
      image_url: null,
    };
    const headers = { 'Idempotency-Key': 'walk-key-1' };
    const first = await call('POST', '/api/client/blast-requests', budi.token, body, 201, headers);
    budi.apply('usage', -2);
    const again = await call('POST', '/api/client/blast-requests', budi.token, body, 201, headers);
    expect(again).toEqual(first);
    // The stored answer is the blast as it was saved, field for field.
    expect(await call('GET', `/api/client/blast-requests/${first.id}`, budi.token)).toEqual(first);
    const other = await server.api('POST', '/api/client/blast-requests', {
      token: budi.token,
      body: { ...body, message: 'Pesan lain' },
      headers,
    });
    expectCleanError(other, 422);
    expect(other.body.detail).toBe('Idempotency-Key sudah dipakai untuk permintaan yang berbeda');
    // Keys belong to one client: another client's same key is a fresh request.
    siti.apply('adjustment', 10);
    const edited = await call('PUT', `/api/admin/users/${siti.id}`, adminToken, {
      username: 'siti',
      email: 'siti@example.test',
      points: 10,
      is_active: true,
    });
    expect(edited.points).toBe(10);
    const hers = await call('POST', '/api/client/blast-requests', siti.token, body, 201, headers);
    siti.apply('usage', -2);
    expect(hers.id).not.toBe(first.id);
    blasts.e = first;
    blasts.siti = hers;
    await expectAccount(budi);
    await expectAccount(siti);
    const list = await call('GET', '/api/client/blast-requests?page_size=100', budi.token);
    expect(list.items.filter((b: any) => b.id === first.id)).toHaveLength(1);
  });

  it('per-number statuses on a pending blast move counts, not points', async () => {
    const saved = await call(
      'POST',
      `/api/admin/blast-requests/${blasts.e.id}/number-statuses`,
      adminToken,
      { number_statuses: { 1: 'failed' } },
    );
    expect(saved).toMatchObject({ status: 'pending', failed_count: 1, refund_points: 0 });
    await expectAccount(budi);
    const done = await result(blasts.e.id, [1, 1, 0]);
    budi.apply('refund', 1);
    expect(done.refund_points).toBe(1);
    await expectAccount(budi);
  });

  it('a blast above the balance is refused with SPEC title and counts', async () => {
    const answer = await server.api('POST', '/api/client/blast-requests', {
      token: budi.token,
      body: { message: 'Terlalu banyak', target_numbers: series('16', 100), image_url: null },
    });
    expectCleanError(answer, 409);
    expect(answer.body.detail).toBe(
      `Poin Tidak Cukup: Anda membutuhkan 100 poin, tetapi hanya memiliki ${budi.balance} poin`,
    );
    const tooMany = await server.api('POST', '/api/client/blast-requests', {
      token: budi.token,
      body: { message: 'x', target_numbers: series('17', 501), image_url: null },
    });
    expectCleanError(tooMany, 422);
    expect(tooMany.body.detail).toBe('Maksimal 500 nomor kontak per blast');
    blasts.f = await blast(budi, ['081299900001']);
    await expectAccount(budi);
  });

  it('summaries, dashboards and user stats match every rule', async () => {
    // Budi: a, b, e completed; c rejected; d cancelled; f pending. Siti: one pending.
    const mine = await call('GET', '/api/client/blast-requests', budi.token);
    expectSpecFields(mine, 'page');
    expect(mine).toMatchObject({ total: 6, page: 1, page_size: 5 });
    expect(mine.items).toHaveLength(5);
    expect(mine.summary).toEqual({
      pending: 1,
      completed: 3,
      rejected: 1,
      cancelled: 1,
      total: 6,
      success_rate: 50,
    });
    const page2 = await call('GET', '/api/client/blast-requests?page=2', budi.token);
    expect(page2.items.map((b: any) => b.id)).toEqual([blasts.a.id]);
    const all = await call('GET', '/api/admin/blast-requests?page_size=100', adminToken);
    expect(all.summary).toEqual({
      pending: 2,
      completed: 3,
      rejected: 1,
      cancelled: 1,
      total: 7,
      success_rate: 43, // 3 / 7 = 42.86 %
    });
    const pending = await call('GET', '/api/admin/blast-requests?status=pending', adminToken);
    expect(pending.total).toBe(2);
    expect(pending.items.map((b: any) => b.username).sort()).toEqual(['budi', 'siti']);

    const admin = await call('GET', '/api/admin/dashboard', adminToken);
    expect(admin).toEqual({
      total_users: 3,
      total_blasts: 3,
      pending_blasts: 2,
      pending_points: 1,
    });

    const { start, end } = jakartaDayRange(new Date());
    const page = await call('GET', '/api/client/transactions?page_size=100', budi.token);
    const today = page.items.filter((t: any) => t.created_at >= start && t.created_at < end);
    const todaySum = (type: string) =>
      today.filter((t: any) => t.type === type).reduce((n: number, t: any) => n + t.delta, 0);
    const dashboard = await call('GET', '/api/client/dashboard', budi.token);
    expectSpecFields(dashboard, 'clientDashboard');
    expect(dashboard).toEqual({
      today_blasts: 6,
      points_used_today: -todaySum('usage'),
      points_refunded_today: todaySum('refund'),
      total_blasts: 6,
      current_points: budi.balance,
    });
    // Every entry of this walk was made today: 5+100+119+3+2+1 used; 3+50+119+3+1 refunded.
    expect(dashboard.points_used_today).toBe(230);
    expect(dashboard.points_refunded_today).toBe(176);
    expect(budi.balance).toBe(121 - 230 + 176);

    // Joko is deactivated; the average is rounded (67 + 8 + 0) / 3 = 25.
    await call('PUT', `/api/admin/users/${joko.id}`, adminToken, {
      username: 'joko',
      email: 'joko@example.test',
      points: 0,
      is_active: false,
    });
    const users = await call('GET', '/api/admin/users', adminToken);
    expectSpecFields(users, 'page');
    for (const user of users.items) expectSpecFields(user, 'clientUser');
    expect(users.summary).toEqual({
      total_clients: 3,
      active_clients: 2,
      total_points: budi.balance + siti.balance,
      average_points: Math.round((budi.balance + siti.balance) / 3),
    });
    expect(budi.balance + siti.balance).toBe(75);
    expect(users.summary.average_points).toBe(25);
    expect(users.items.map((u: any) => [u.username, u.points, u.is_active])).toEqual([
      ['joko', 0, false],
      ['siti', 8, true],
      ['budi', 67, true],
    ]);
    await expectAccount(budi);
    await expectAccount(siti);
  });

  it('the client view of the default page sizes and the SPEC field lists hold', async () => {
    const transactions = await call('GET', '/api/client/transactions', budi.token);
    expect(transactions.page_size).toBe(5);
    expect(transactions.items).toHaveLength(5);
    expect(transactions.total).toBe(budi.entries.length);
    const requestsPage = await call('GET', '/api/admin/point-requests', adminToken);
    for (const r of requestsPage.items) expectSpecFields(r, 'pointRequest');
    const blastsPage = await call('GET', '/api/admin/blast-requests', adminToken);
    for (const b of blastsPage.items) expectSpecFields(b, 'blast');
    await ledgerHolds();
  });
});
