// The gateway channel end to end against the local WAHA (decision 214): devices take numbers at
// a human pace (a gap within [min, max] per device, typing first, sending hours, a daily limit),
// numbers not on WhatsApp are refunded and never sent, a restricted device is held and the
// others finish its numbers. The pacing clock is fast (one second = SECOND_MS).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_REASONS } from '#common/blast-rules.ts';
import { jakartaDayRange } from '#common/dashboard.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { renderMessage, spintaxSeed } from '#common/spintax.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { groupBy } from '#common/collections.ts';
import { numberEnding } from '#server/test/delivery-fixture.ts';
import { IMAGE_MISSING } from '#server/modules/delivery/outbox.ts';
import { waitFor } from '#server/test/processes.ts';
import {
  SECOND_MS,
  startGatewayFixture,
  type GatewayFixture,
} from '#server/test/gateway-fixture.ts';

let f: GatewayFixture;

beforeAll(async () => {
  f = await startGatewayFixture();
  await f.addDevice('toko-1', '6281100000001');
  await f.addDevice('toko-2', '6281100000002');
});
afterAll(async () => {
  await f?.close();
});
afterEach(async () => {
  await f.configure({ daily_limit_per_device: 500, sending_hours: '00:00-24:00' });
});

const chat = (number: string) => `${number}@c.us`;

/** Each device's count of messages sent today, as its card shows it. */
async function sentToday() {
  const devices = await f.server.api('GET', '/api/admin/delivery/devices', {
    token: f.server.adminToken,
  });
  return devices.body.items as { session: string; sent_today: number }[];
}

async function claimsOf(blastId: string) {
  return f.server.database.db
    .selectFrom('blast_numbers')
    .select(['idx', 'number', 'device', 'claimed_at', 'state', 'status', 'error_title'])
    .where('blast_id', '=', blastId)
    .orderBy('idx')
    .execute();
}

describe('a free-text blast through two devices', () => {
  it('sends each number once at a human pace and refunds the numbers not on WhatsApp', async () => {
    // 0001: not on WhatsApp (the double's check-exists says false).
    const numbers = Array.from({ length: 200 }, (_, i) =>
      numberEnding(2000 + i, i % 20 === 0 ? '0001' : '0010'),
    );
    const absent = numbers.filter((n) => n.endsWith('0001'));
    const created = await f.blast(numbers);
    const done = await f.until(created.id, (b) => b.status === 'completed', 60_000);

    expect(done.no_wa_count).toBe(absent.length);
    expect(done.successful_count).toBe(numbers.length - absent.length);
    expect(done.refund_points).toBe(absent.length);
    // Each number on WhatsApp got exactly one message; the others none.
    for (const number of numbers) {
      expect(f.waha.sentTo(number), number).toHaveLength(absent.includes(number) ? 0 : 1);
    }
    // The spintax rendered per number, the same way the engine's seed says.
    const rows = await claimsOf(created.id);
    for (const row of rows.filter((r) => r.status === 'success').slice(0, 10)) {
      const [sent] = f.waha.sentTo(row.number);
      expect(sent!.text).toBe(
        renderMessage(created.message, row.number, spintaxSeed(created.id, row.idx)),
      );
    }
    // Both devices sent. Each one's gaps between sends (by the engine's clock) are never under
    // 5 pacing seconds, and vary as a person's would. How they are drawn within [5, 8] is checked
    // exactly on a fake clock (gateway-pacing.test.ts): here the loop's wake-up adds to them.
    const byDevice = groupBy(rows, (row) => row.device ?? 'none');
    expect([...byDevice.keys()].sort()).toEqual(['toko-1', 'toko-2']);
    for (const claims of byDevice.values()) {
      const times = claims.map((row) => Date.parse(row.claimed_at!)).sort((a, b) => a - b);
      const gaps = times.slice(1).map((time, i) => time - times[i]!);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(5 * SECOND_MS);
      expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThanOrEqual(SECOND_MS);
    }
    // "Typing…" was shown in the chat before each message.
    for (const send of f.waha.sends.filter((s) => numbers.includes(s.chatId.split('@')[0]!))) {
      const typed = f.waha.presence.find(
        (p) => p.chatId === send.chatId && p.action === 'startTyping' && p.at <= send.at,
      );
      expect(typed, send.chatId).toBeDefined();
    }
    // WAHA's signed acks (SERVER, DEVICE for these numbers) move each number to delivered.
    const acked = await f.until(
      created.id,
      (b) => b.numbers.filter((n: any) => n.delivery.state === 'delivered').length === 190,
    );
    const one = acked.numbers.find((n: any) => n.status === 'success');
    expect(one.delivery.sent_at).not.toBeNull();
    expect(one.delivery.delivered_at).not.toBeNull();
    // The devices' daily counts are the messages sent, not the numbers found absent.
    const counts = (await sentToday()).map((d) => d.sent_today);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(numbers.length - absent.length);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  }, 90_000);
});

describe('a blast whose image is gone from Sebar', () => {
  it('fails each number unsent and refunded, its reason said, the devices not held', async () => {
    const imageUrl = await f.image();
    await f.server.context.files.remove(imageUrl.split('/').pop()!);
    const numbers = [numberEnding(2900, '0010'), numberEnding(2901, '0010')];
    const created = await f.blast(numbers, 'Promo hari ini', imageUrl);
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect([done.failed_count, done.refund_points]).toEqual([2, 2]);
    for (const { status, delivery } of done.numbers) {
      expect([status, delivery.state, delivery.reason]).toEqual([
        'failed',
        'failed',
        IMAGE_MISSING,
      ]);
    }
    for (const number of numbers) expect(f.waha.sentTo(number)).toEqual([]);
    // The next blast goes out as usual.
    const next = await f.blast([numberEnding(2902, '0010')]);
    expect((await f.until(next.id, (b) => b.status === 'completed')).successful_count).toBe(1);
  });
});

describe('human limits', () => {
  it('sends nothing outside the sending hours, and goes on when they open', async () => {
    // A window that is closed now (Asia/Jakarta): from an hour ahead to two hours ahead.
    const hour = (offset: number) =>
      String((new Date(Date.now() + 7 * 3600_000).getUTCHours() + offset) % 24).padStart(2, '0');
    const closed = `${hour(1)}:00-${hour(2)}:00`;
    if (closed > '23') return; // the window would wrap past midnight: not expressible
    await f.configure({ sending_hours: closed });
    const number = numberEnding(3000, '0010');
    const created = await f.blast([number]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(f.waha.sentTo(number)).toHaveLength(0);
    expect((await claimsOf(created.id))[0]!.state).toBe('queued');
    await f.configure({ sending_hours: '00:00-24:00' });
    await f.until(created.id, (b) => b.status === 'completed');
    expect(f.waha.sentTo(number)).toHaveLength(1);
  });

  it('holds each device to its daily limit; the rest wait', async () => {
    // What each device's card says it sent today: what its limit counts.
    const perDevice = async () =>
      new Map((await sentToday()).map((d) => [d.session, d.sent_today]));
    const before = await perDevice();
    // The busier device may send 3 more today, the other its difference more.
    const limit = Math.max(before.get('toko-1') ?? 0, before.get('toko-2') ?? 0) + 3;
    const room = 2 * limit - (before.get('toko-1') ?? 0) - (before.get('toko-2') ?? 0);
    await f.configure({ daily_limit_per_device: limit });
    const numbers = Array.from({ length: room + 5 }, (_, i) => numberEnding(3100 + i, '0010'));
    const created = await f.blast(numbers);
    const taken = async () =>
      (await claimsOf(created.id)).filter((row) => row.state !== 'queued').length;
    await waitFor(async () => (await taken()) >= room, 20_000, `${room} numbers taken`);
    // Several pacing gaps later, still no more than the limits allow.
    await new Promise((resolve) => setTimeout(resolve, 20 * SECOND_MS));
    expect(await taken()).toBe(room);
    for (const count of (await perDevice()).values()) expect(count).toBe(limit);
    // The client reads why the rest wait: until tomorrow's first sending hour (midnight here).
    expect(await f.read(created.id)).toMatchObject({
      held_reason: HOLD_REASONS.deviceLimit,
      resumes_at: jakartaDayRange(new Date()).end,
    });
    // Lifted: the rest are sent.
    await f.configure({ daily_limit_per_device: 500 });
    await f.until(created.id, (b) => b.status === 'completed');
    for (const number of numbers) expect(f.waha.sentTo(number)).toHaveLength(1);
  });
});

describe('a device hit by 463 mid-blast', () => {
  it('is held with its reason, and the other device finishes its numbers', async () => {
    f.waha.restrict('toko-1', 463, 2);
    const numbers = Array.from({ length: 20 }, (_, i) => numberEnding(4000 + i, '0010'));
    const created = await f.blast(numbers);
    const done = await f.until(created.id, (b) => b.status === 'completed', 60_000);
    expect(done.successful_count).toBe(20);
    for (const number of numbers) expect(f.waha.sentTo(number)).toHaveLength(1);
    const device = await f.server.database.db
      .selectFrom('gateway_devices')
      .selectAll()
      .where('session', '=', 'toko-1')
      .executeTakeFirstOrThrow();
    expect(device.error_code).toBe(463);
    expect(device.pause_reason).toBe(errorMeaning(463).meaning);
    // Held until the admin resumes it: toko-1 sent nothing more after its restriction.
    const fromToko1 = f.waha.sends.filter(
      (s) => s.session === 'toko-1' && numbers.map(chat).includes(s.chatId),
    );
    expect(fromToko1.length).toBeLessThanOrEqual(2);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
    f.waha.restrict('toko-1', null);
  }, 60_000);
});
