// The gateway's human pacing on a fake clock (decision 214): `claimForDevices` is called at chosen
// instants with a chosen random draw, so the gaps, the sending hours and the daily limit are
// checked exactly. No worker runs here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { now } from '#server/db/connection.ts';
import {
  claimForDevices,
  holdDevice,
  type GatewayPacing,
} from '#server/modules/delivery/gateway-outbox.ts';
import { numberEnding } from '#server/test/delivery-fixture.ts';
import { writeDeliveryMode } from '#server/test/delivery-mode.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';

let server: TestServer;
let client = { id: '', token: '' };

const PACING: GatewayPacing = {
  minDelaySeconds: 8,
  maxDelaySeconds: 20,
  dailyLimitPerDevice: 500,
  sendingHours: '08:00-20:00',
  secondMs: 1000,
};
/** Epoch ms of a Jakarta wall-clock time (UTC+7). */
const wib = (text: string) => Date.parse(`${text}+07:00`);
const SECOND = 1000;

beforeAll(async () => {
  server = await startServer({ deliveryWorker: false });
  const created = await server.createClient();
  client = { id: created.user.id, token: created.token };
  await server.api('PUT', `/api/admin/users/${client.id}`, {
    token: server.adminToken,
    body: {
      username: created.user.username,
      email: created.user.email,
      points: 1000,
      is_active: true,
    },
  });
  await writeDeliveryMode(server.database.db, 'gateway');
});
afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  const { db } = server.database;
  await db.deleteFrom('gateway_devices').execute();
  await db.updateTable('blast_numbers').set({ state: 'sent', device: null }).execute();
  for (const session of ['hp-1', 'hp-2']) {
    await db
      .insertInto('gateway_devices')
      .values({
        session,
        phone: null,
        push_name: null,
        status: 'WORKING',
        paused_until: null,
        pause_reason: null,
        error_code: null,
        next_send_at: null,
        created_at: now(),
        updated_at: now(),
      })
      .execute();
  }
});

/** A gateway blast of `count` numbers, queued and due (created in the past of the fake clock). */
async function queue(count: number, at: number) {
  const numbers = Array.from({ length: count }, (_, i) => numberEnding(5000 + i, '0010'));
  const answer = await server.api('POST', '/api/client/blast-requests', {
    token: client.token,
    body: { target_numbers: numbers, message: 'Halo {nomor}' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await server.database.db
    .updateTable('blast_numbers')
    .set({ next_attempt_at: new Date(at - SECOND).toISOString() })
    .where('blast_id', '=', answer.body.id)
    .execute();
  return answer.body.id as string;
}

const claim = (at: number, random = () => 0.5, pacing = PACING) =>
  claimForDevices(server.database, pacing, at, random);

describe('human pacing on a fake clock', () => {
  it('draws each device a gap within [min, max] and never sends before it ends', async () => {
    const t0 = wib('2026-11-30T09:00:00');
    await queue(6, t0);
    // Both devices take one; the draw decides the gap: 0 → min, 0.999… → max.
    const first = await claim(t0, () => 0);
    expect(first.claimed.map((c) => c.device)).toEqual(['hp-1', 'hp-2']);
    expect(first.waitMs).toBe(8 * SECOND);
    expect((await claim(t0 + 8 * SECOND - 1)).claimed).toEqual([]);
    const second = await claim(t0 + 8 * SECOND, () => 0.99999);
    expect(second.claimed).toHaveLength(2);
    expect(second.waitMs).toBe(20 * SECOND);
    const devices = await server.database.db
      .selectFrom('gateway_devices')
      .select(['session', 'next_send_at'])
      .orderBy('session')
      .execute();
    for (const device of devices) expect(Date.parse(device.next_send_at!)).toBe(t0 + 28 * SECOND);
    expect((await claim(t0 + 28 * SECOND - 1)).claimed).toEqual([]);
    expect((await claim(t0 + 28 * SECOND)).claimed).toHaveLength(2);
  });

  it('sends nothing outside the sending hours and says when they open', async () => {
    const evening = wib('2026-11-30T20:00:00');
    await queue(2, evening);
    const closed = await claim(evening);
    expect(closed.claimed).toEqual([]);
    expect(closed.waitMs).toBe(wib('2026-12-01T08:00:00') - evening);
    expect((await claim(wib('2026-12-01T07:59:59'))).claimed).toEqual([]);
    expect((await claim(wib('2026-12-01T08:00:00'))).claimed).toHaveLength(2);
  });

  it("holds each device to its daily limit (Asia/Jakarta's day)", async () => {
    const morning = wib('2026-12-02T08:00:00');
    await queue(10, morning);
    const pacing = { ...PACING, dailyLimitPerDevice: 2 };
    let at = morning;
    let taken = 0;
    for (let round = 0; round < 5; round += 1, at += 20 * SECOND)
      taken += (await claim(at, () => 0, pacing)).claimed.length;
    expect(taken).toBe(4);
    // The next day each may send two more.
    expect((await claim(wib('2026-12-03T08:00:00'), () => 0, pacing)).claimed).toHaveLength(2);
  });

  it('leaves a held device out until its hold ends, or until the admin resumes it', async () => {
    const t0 = wib('2026-12-04T10:00:00');
    await queue(4, t0);
    await holdDevice(server.database, 'hp-1', { reason: 'kode 463', code: 463, until: null });
    await holdDevice(server.database, 'hp-2', {
      reason: 'tidak terhubung',
      code: null,
      until: t0 + 60 * SECOND,
    });
    expect((await claim(t0)).claimed).toEqual([]);
    const later = await claim(t0 + 60 * SECOND);
    expect(later.claimed.map((c) => c.device)).toEqual(['hp-2']);
  });
});
