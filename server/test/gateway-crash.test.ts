// The gateway channel through crashes (as delivery-crash.test.ts for the Cloud API): a free-text
// blast over two devices of the local WAHA (in this process), Sebar (or its separate worker)
// killed with SIGKILL in the middle of sending and restarted. The double counts what WhatsApp
// got: every number exactly once, the blast completes, the refunds and the ledger are exact.
//
// Two numbers' sends are accepted by WhatsApp but their answers held past the kill, so the dead
// process certainly leaves numbers sent with no answer recorded: only their acks (signed
// webhooks, retried by WAHA while Sebar is down) can tell the restarted engine not to send them
// again.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { firstOutcome, outcomeBySuffix } from '#local-apis/waha/outcomes.ts';
import { startLocalWaha, type LocalWaha } from '#local-apis/waha/server.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { ADMIN } from './helpers.ts';
import { numberEnding } from './delivery-fixture.ts';
import {
  call,
  freePort,
  makeClient,
  processDatabase,
  send,
  signIn,
  spawnServer,
  stopChildren,
  waitFor,
  waitHealthy,
  withDb,
  workerProcess,
  type ChildServer,
  type Launch,
  type ProcessDatabase,
} from './processes.ts';

afterAll(stopChildren);

const DELIVERY_ENV = {
  SEBAR_SECRET_KEY: 'gateway-crash-key-0123456789',
  SEBAR_DELIVERY_RETRY_MS: '50',
  // One pacing second is 20 ms: the devices' gaps of 5-8 s take 100-160 ms.
  SEBAR_DELIVERY_GATEWAY_SECOND_MS: '20',
  // The least the engine allows: for the gateway, its longest send and a margin.
  SEBAR_DELIVERY_UNANSWERED_MS: '0',
};

const COUNT = 40;
const numbers = Array.from({ length: COUNT }, (_, i) =>
  // Two numbers are not on WhatsApp (suffix 0001): refunded, never sent.
  numberEnding(5000 + i, i === 3 || i === 30 ? '0001' : '2000'),
);
/** Sent and recorded by WhatsApp, but their answers come only long after the kill. */
const HELD = [numbers[10]!, numbers[11]!];
const NOT_ON_WA = [numbers[3]!, numbers[30]!];
const WEBHOOK_SECRET = 'gateway-crash-webhook-secret';

let database: ProcessDatabase | undefined;
let waha: LocalWaha | undefined;
afterEach(async () => {
  await stopChildren();
  await waha?.close();
  await database?.drop();
});

async function start(port: number, env: Record<string, string> = {}, launch?: Launch) {
  const child = spawnServer(database!, port, { ...DELIVERY_ENV, ...env }, launch);
  if (!launch) await waitHealthy(child);
  return child;
}

/** The local WAHA: every number read, the held ones answered two minutes late. */
async function startWaha() {
  const held = Object.fromEntries(HELD.map((n) => [n, 'timeout:120000']));
  waha = await startLocalWaha({ ackDelayMs: 5, outcomes: firstOutcome(held, outcomeBySuffix) });
}

/**
 * Sets the gateway mode as the admin would, adds two devices through Sebar (which creates their
 * WAHA sessions and webhooks) and pairs them, funds a client and starts the blast.
 */
async function startBlast(url: string) {
  const admin = await signIn(url, ADMIN.email, ADMIN.password);
  await call(url, admin, 'PUT', '/api/admin/delivery', {
    mode: 'gateway',
    gateway: {
      provider: 'waha',
      base_url: waha!.url,
      api_key: waha!.options.apiKey,
      session: 'default',
      webhook_secret: WEBHOOK_SECRET,
      min_delay_seconds: 5,
      max_delay_seconds: 8,
      daily_limit_per_device: 500,
      // The whole day: '00:00-23:59' would close the last minute of it (16:59 UTC), and a run in
      // that minute would wait for the next day to open.
      sending_hours: '00:00-24:00',
      check_numbers: true,
    },
  });
  for (const [session, phone] of [
    ['hp-satu', '6281100000001'],
    ['hp-dua', '6281100000002'],
  ] as const) {
    await call(url, admin, 'POST', '/api/admin/delivery/devices', { session });
    await waitFor(() => waha!.session(session)?.status === 'SCAN_QR_CODE', 10_000, 'the QR');
    waha!.pair(session, phone);
  }
  await waitFor(
    async () => {
      const list = await call(url, admin, 'GET', '/api/admin/delivery/devices');
      return list.items.filter((d: any) => d.status === 'WORKING').length === 2;
    },
    15_000,
    'two WORKING devices',
  );
  const { token } = await makeClient(url, admin, 1000);
  const blast = await call(url, token, 'POST', '/api/client/blast-requests', {
    target_numbers: numbers,
    message: '{Halo|Hai} kak {nomor}, ada promo hari ini',
  });
  return { token, blast };
}

/** Waits until WhatsApp has recorded both held sends and a dozen others: the moment to kill. */
const midBlast = () =>
  waitFor(
    () => HELD.every((n) => waha!.sentTo(n).length === 1) && waha!.sends.length >= 14,
    30_000,
    'the held sends',
  );

/** After the restart: every number sent once (by WhatsApp's count), the rest exact. */
async function expectExactlyOnce(url: string, { token, blast }: { token: string; blast: any }) {
  const read = async () =>
    (await send({ url, method: 'GET', path: `/api/client/blast-requests/${blast.id}`, token }))
      .body;
  await waitFor(
    async () => {
      const now = await read();
      return (
        now.status === 'completed' &&
        now.numbers.every((n: any) => ['read', 'failed'].includes(n.delivery.state))
      );
    },
    180_000,
    'the blast to complete',
  );
  for (const number of numbers) {
    expect(waha!.sentTo(number).length, number).toBe(NOT_ON_WA.includes(number) ? 0 : 1);
  }
  expect(waha!.sends).toHaveLength(COUNT - NOT_ON_WA.length);
  const done = await read();
  expect(done).toMatchObject({ successful_count: COUNT - 2, refund_points: 2 });
  for (const n of done.numbers) {
    const state = NOT_ON_WA.includes(n.number) ? 'failed' : 'read';
    expect(n.delivery.state, n.number).toBe(state);
  }
  const me = (await send({ url, method: 'GET', path: '/api/auth/me', token })).body;
  expect(me.points).toBe(1000 - COUNT + 2);
  expect(await withDb(database!, (handle) => checkLedger(handle.db))).toEqual([]);
}

describe('a kill -9 in the middle of a gateway blast', () => {
  it('of the server: after the restart every number is sent exactly once', async () => {
    database = await processDatabase();
    const port = await freePort();
    await startWaha();
    let server: ChildServer = await start(port);
    const run = await startBlast(server.url);
    await midBlast();
    await server.kill('SIGKILL');
    expect(waha!.sends.length).toBeLessThan(COUNT - NOT_ON_WA.length);
    server = await start(port);
    await expectExactlyOnce(server.url, run);
  }, 300_000);

  it('of a separate worker: after the restart every number is sent exactly once', async () => {
    database = await processDatabase();
    const port = await freePort();
    await startWaha();
    const server = await start(port, { SEBAR_DELIVERY_WORKER: 'off' });
    const alone = await start(port, {}, workerProcess);
    const run = await startBlast(server.url);
    await midBlast();
    await alone.kill('SIGKILL');
    expect(waha!.sends.length).toBeLessThan(COUNT - NOT_ON_WA.length);
    // Two workers now share what is left.
    await start(port, {}, workerProcess);
    await start(port, {}, workerProcess);
    await expectExactlyOnce(server.url, run);
  }, 300_000);
});
