// Two things the gateway channel tells people, end to end against the local WAHA: a STOP written
// to a device puts its sender on the opt-out list once (channel 'gateway'), and a later blast
// leaves that number out before charging it; a blast made while the sending hours are closed
// answers why it waits and when it goes on (`held_reason`, `resumes_at`), and sends nothing until
// then; so does a blast made while the only device is disconnected, until the admin pairs it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendingWindow } from '#common/sending-hours.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { HOLD_REASONS, OPTED_OUT_BEFORE_SENDING } from '#common/blast-rules.ts';
import { numberEnding } from '#server/test/delivery-fixture.ts';
import { startGatewayFixture, type GatewayFixture } from '#server/test/gateway-fixture.ts';
import { waitFor } from '#server/test/processes.ts';

let f: GatewayFixture;

beforeAll(async () => {
  f = await startGatewayFixture();
  await f.addDevice('toko-1', '6281100000001');
});
afterAll(async () => {
  await f?.close();
});

const db = () => f.server.database.db;

/** Resolves once the double posted every event and Sebar's worker applied them all. */
async function applied() {
  await f.waha.settled();
  const unapplied = async () =>
    Number(
      (
        await db()
          .selectFrom('webhook_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('processed_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  await expect.poll(unapplied, { timeout: 10_000 }).toBe(0);
}

async function points() {
  return (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body
    .points as number;
}

describe('a STOP written to a device', () => {
  const from = numberEnding(5000, '0010');

  it('puts its sender on the opt-out list once, even when written twice', async () => {
    f.waha.incoming('toko-1', from, 'STOP');
    await applied();
    f.waha.incoming('toko-1', from, 'STOP');
    await applied();
    // Every post was taken (signed right).
    expect(f.waha.webhooks.filter((w) => w.status !== 200)).toEqual([]);
    const list = await f.server.api('GET', '/api/admin/opt-outs?page_size=100', {
      token: f.server.adminToken,
    });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ number: from, channel: 'gateway', keyword: 'STOP' }),
    ]);
    expect(list.body.summary).toMatchObject({ total: 1, whatsapp: 1, admin: 0 });
  });

  it('leaves the number out of a later blast, uncharged and never sent to', async () => {
    const other = numberEnding(5001, '0010');
    const before = await points();
    const created = await f.blast([from, other]);
    expect(created.opted_out_count).toBe(1);
    expect(created.total_numbers).toBe(1);
    expect(created.numbers.map((n: { number: string }) => n.number)).toEqual([other]);
    expect(await points()).toBe(before - 1);
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done.opted_out_count).toBe(1);
    expect(done.successful_count).toBe(1);
    expect(f.waha.sentTo(other)).toHaveLength(1);
    expect(f.waha.sentTo(from)).toHaveLength(0);
    expect(await checkLedger(db())).toEqual([]);
  });
});

describe('a STOP from a hidden id (`…@lid`)', () => {
  const lookups = () => f.waha.requests.filter((r) => r.path.includes('/lids/'));

  it('puts the number WAHA tells for it on the list, asking once', async () => {
    const from = numberEnding(5200, '0010');
    f.waha.incoming('toko-1', from, 'berhenti', 'lid');
    await applied();
    f.waha.incoming('toko-1', from, 'STOP', 'lid');
    await applied();
    const list = await f.server.api('GET', `/api/admin/opt-outs?search=${from}`, {
      token: f.server.adminToken,
    });
    expect(list.body.items).toEqual([
      expect.objectContaining({ number: from, channel: 'gateway', keyword: 'berhenti' }),
    ]);
    // The second message's hidden id was known: WAHA was asked once.
    expect(lookups()).toHaveLength(1);
  });

  it('is applied without a number when WAHA knows none, and blocks nothing behind it', async () => {
    const hidden = numberEnding(5201, '0010');
    const after = numberEnding(5202, '0010');
    f.waha.incoming('toko-1', hidden, 'STOP', 'hidden');
    f.waha.incoming('toko-1', after, 'STOP');
    await applied();
    const list = await f.server.api('GET', '/api/admin/opt-outs?page_size=100', {
      token: f.server.adminToken,
    });
    const numbers = list.body.items.map((item: { number: string }) => item.number);
    expect(numbers).toContain(after);
    expect(numbers).not.toContain(hidden);
    const kept = await db().selectFrom('whatsapp_lids').selectAll().execute();
    expect(new Set(kept.map((row) => row.number))).toEqual(
      new Set([numberEnding(5200, '0010'), null]),
    );
  });
});

/** Sending hours closed now (Asia/Jakarta): from the next hour to midnight, or to 23:00. */
function closedHours() {
  const hour = new Date(Date.now() + 7 * 3600_000).getUTCHours();
  return hour < 23 ? `${String(hour + 1).padStart(2, '0')}:00-24:00` : '00:00-23:00';
}

describe('a recipient who opts out while a blast to them waits', () => {
  it('is withdrawn from it unsent and refunded, by a STOP or by the admin', async () => {
    await f.configure({ sending_hours: closedHours() });
    const [stops, listed, stays] = [5300, 5301, 5302].map((n) => numberEnding(n, '0010'));
    const before = await points();
    const created = await f.blast([stops!, listed!, stays!]);
    expect(await points()).toBe(before - 3);

    f.waha.incoming('toko-1', stops!, 'STOP');
    await applied();
    const added = await f.server.api('POST', '/api/admin/opt-outs', {
      token: f.server.adminToken,
      body: { number: listed },
    });
    expect(added.status).toBe(201);
    const waiting = await f.read(created.id);
    expect(waiting.status).toBe('pending');
    for (const idx of [0, 1]) {
      expect(waiting.numbers[idx]).toMatchObject({
        status: 'failed',
        delivery: { state: 'failed', reason: OPTED_OUT_BEFORE_SENDING, attempts: 0 },
      });
    }
    expect(waiting.numbers[2]).toMatchObject({ status: 'pending', delivery: { state: 'queued' } });

    await f.configure({ sending_hours: '00:00-24:00' });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done).toMatchObject({ successful_count: 1, failed_count: 2, refund_points: 2 });
    expect(await points()).toBe(before - 1);
    expect(f.waha.sentTo(stops!)).toHaveLength(0);
    expect(f.waha.sentTo(listed!)).toHaveLength(0);
    expect(f.waha.sentTo(stays!)).toHaveLength(1);
    expect(await checkLedger(db())).toEqual([]);
  });
});

describe('a blast made while the sending hours are closed', () => {
  it('answers when it goes on, sends nothing until then, and goes on when they open', async () => {
    const closed = closedHours();
    await f.configure({ sending_hours: closed });
    const number = numberEnding(5100, '0010');
    const created = await f.blast([number]);
    const expected = new Date(sendingWindow(closed, Date.now()).opensAt).toISOString();
    expect(Date.parse(expected)).toBeGreaterThan(Date.now());

    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await f.read(created.id);
    expect(waiting.status).toBe('pending');
    expect(waiting).toMatchObject({ held_reason: HOLD_REASONS.closedHours, resumes_at: expected });
    // On the hour in Jakarta (UTC+7 has no minutes of its own).
    expect(new Date(expected).getUTCMinutes()).toBe(0);
    expect(f.waha.sentTo(number)).toHaveLength(0);
    // The list says it too, as the detail does.
    const list = await f.server.api('GET', '/api/client/blast-requests', { token: f.client.token });
    expect(list.body.items.find((b: { id: string }) => b.id === created.id)).toMatchObject({
      status: 'pending',
    });

    await f.configure({ sending_hours: '00:00-24:00' });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done).toMatchObject({ held_reason: null, resumes_at: null });
    expect(f.waha.sentTo(number)).toHaveLength(1);
  });
});

describe('a blast made while the only device is disconnected', () => {
  const admin = () => f.server.adminToken;
  const device = async () =>
    (await f.server.api('GET', '/api/admin/delivery/devices', { token: admin() })).body.items.find(
      (d: { session: string }) => d.session === 'toko-1',
    );

  it('says so to the client and the admin, with no time, and goes on once paired again', async () => {
    f.waha.drop('toko-1');
    await waitFor(async () => (await device())?.status === 'FAILED', 10_000, 'toko-1 FAILED');
    const number = numberEnding(5900, '0010');
    const created = await f.blast([number]);
    // The creation's answer says it already, and so does every read after it.
    expect(created).toMatchObject({ held_reason: HOLD_REASONS.noDevice, resumes_at: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await f.read(created.id)).toMatchObject({
      status: 'pending',
      held_reason: HOLD_REASONS.noDevice,
      resumes_at: null,
    });
    const seen = await f.server.api('GET', `/api/admin/blast-requests/${created.id}`, {
      token: admin(),
    });
    expect(seen.body).toMatchObject({ held_reason: HOLD_REASONS.noDevice, resumes_at: null });
    expect(f.waha.sentTo(number)).toHaveLength(0);

    const started = await f.server.api('POST', '/api/admin/delivery/devices/toko-1/start', {
      token: admin(),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitFor(() => f.waha.session('toko-1')?.status === 'SCAN_QR_CODE', 5_000, 'the QR');
    f.waha.pair('toko-1', '6281100000001');
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done).toMatchObject({ held_reason: null, resumes_at: null, successful_count: 1 });
    expect(f.waha.sentTo(number)).toHaveLength(1);
  });
});
