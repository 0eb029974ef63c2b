// Delivery through crashes: the real server (and a separate worker) killed with SIGKILL in the
// middle of a Cloud API blast, then restarted. The local Cloud API counts what it received:
// every number arrives exactly once, the blast completes and the ledger is exact.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '#common/delivery.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { ADMIN } from './helpers.ts';
import { numberEnding, TEXT_TEMPLATE } from './delivery-fixture.ts';
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
  SEBAR_SECRET_KEY: 'delivery-crash-key-0123456789',
  SEBAR_DELIVERY_RECIPIENT_GAP_MS: '0',
  SEBAR_DELIVERY_RETRY_MS: '50',
  // The least the engine allows: a number left sending goes back after 15 s of silence.
  SEBAR_DELIVERY_UNANSWERED_MS: '0',
};

let database: ProcessDatabase | undefined;
let whatsapp: LocalCloudApi | undefined;
afterEach(async () => {
  await stopChildren();
  await whatsapp?.close();
  await database?.drop();
});

/** Sets up Cloud API delivery (50 messages a second), a funded client and a 150-number blast. */
async function startBlast(url: string) {
  const admin = await signIn(url, ADMIN.email, ADMIN.password);
  await call(url, admin, 'PUT', '/api/admin/delivery', {
    mode: 'cloud_api',
    cloud_api: {
      ...cloudApiSettingsOf(whatsapp!),
      messages_per_second: 50,
    },
  });
  await call(url, admin, 'POST', '/api/admin/delivery/templates/sync');
  await call(url, admin, 'PUT', `/api/admin/delivery/templates/${TEXT_TEMPLATE}`, {
    enabled: true,
  });
  const { token } = await makeClient(url, admin, 1000);
  const numbers = Array.from({ length: 150 }, (_, i) => numberEnding(3000 + i, '2000'));
  const blast = await call(url, token, 'POST', '/api/client/blast-requests', {
    target_numbers: numbers,
    template_id: TEXT_TEMPLATE,
    parameters: ['Rp10.000'],
  });
  return { token, blast, numbers };
}

/** After the restart: every number received once, the blast completed, the ledger exact. */
async function expectExactlyOnce(
  url: string,
  { token, blast, numbers }: Awaited<ReturnType<typeof startBlast>>,
) {
  const read = async () =>
    (await send({ url, method: 'GET', path: `/api/client/blast-requests/${blast.id}`, token }))
      .body;
  await waitFor(
    async () => {
      const now = await read();
      return (
        now.status === 'completed' && now.numbers.every((n: any) => n.delivery.state === 'read')
      );
    },
    90_000,
    'the blast to complete',
  );
  for (const number of numbers) expect(whatsapp!.sentTo(number), number).toBe(1);
  const done = await read();
  expect(done).toMatchObject({ successful_count: 150, refund_points: 0 });
  const me = (await send({ url, method: 'GET', path: '/api/auth/me', token })).body;
  expect(me.points).toBe(1000 - 150);
  expect(await withDb(database!, (handle) => checkLedger(handle.db))).toEqual([]);
}

async function start(port: number, env: Record<string, string> = {}, launch?: Launch) {
  const child = spawnServer(database!, port, { ...DELIVERY_ENV, ...env }, launch);
  if (!launch) await waitHealthy(child);
  return child;
}

describe('a kill -9 in the middle of sending', () => {
  it('of the server: after the restart every number is sent exactly once', async () => {
    database = await processDatabase();
    const port = await freePort();
    whatsapp = await startLocalCloudApi({
      webhookUrl: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
      recipientGapMs: 0,
      webhookRetryMs: 500,
      webhookMaxAttempts: 8,
    });
    let server: ChildServer = await start(port);
    const run = await startBlast(server.url);
    await waitFor(() => whatsapp!.sends.length >= 40, 30_000, '40 sends');
    await server.kill('SIGKILL');
    const sentBefore = whatsapp.sends.length;
    expect(sentBefore).toBeLessThan(150);
    server = await start(port);
    await expectExactlyOnce(server.url, run);
  }, 150_000);

  it('of a separate worker: after the restart every number is sent exactly once', async () => {
    database = await processDatabase();
    const port = await freePort();
    whatsapp = await startLocalCloudApi({
      webhookUrl: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
      recipientGapMs: 0,
      webhookRetryMs: 500,
      webhookMaxAttempts: 8,
    });
    const server = await start(port, { SEBAR_DELIVERY_WORKER: 'off' });
    const alone = await start(port, {}, workerProcess);
    const run = await startBlast(server.url);
    await waitFor(() => whatsapp!.sends.length >= 40, 30_000, '40 sends');
    await alone.kill('SIGKILL');
    expect(whatsapp.sends.length).toBeLessThan(150);
    // Two workers now share what is left.
    await start(port, {}, workerProcess);
    await start(port, {}, workerProcess);
    await expectExactlyOnce(server.url, run);
  }, 150_000);
});
