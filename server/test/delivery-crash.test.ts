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
async function startBlast(url: string, messagesPerSecond = 50) {
  const admin = await signIn(url, ADMIN.email, ADMIN.password);
  await call(url, admin, 'PUT', '/api/admin/delivery', {
    mode: 'cloud_api',
    cloud_api: {
      ...cloudApiSettingsOf(whatsapp!),
      messages_per_second: messagesPerSecond,
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

/** Waits until the blast is completed with every number read. */
async function untilAllRead(url: string, { token, blast }: Awaited<ReturnType<typeof startBlast>>) {
  await waitFor(
    async () => {
      const now = (
        await send({ url, method: 'GET', path: `/api/client/blast-requests/${blast.id}`, token })
      ).body;
      return (
        now.status === 'completed' && now.numbers.every((n: any) => n.delivery.state === 'read')
      );
    },
    90_000,
    'the blast to complete',
  );
}

/** Every number received once, the blast settled with no refund, the ledger exact. */
async function expectSentOnce(
  url: string,
  { token, blast, numbers }: Awaited<ReturnType<typeof startBlast>>,
) {
  for (const number of numbers) expect(whatsapp!.sentTo(number), number).toBe(1);
  const done = (
    await send({ url, method: 'GET', path: `/api/client/blast-requests/${blast.id}`, token })
  ).body;
  expect(done).toMatchObject({ successful_count: 150, refund_points: 0 });
  const me = (await send({ url, method: 'GET', path: '/api/auth/me', token })).body;
  expect(me.points).toBe(1000 - 150);
  expect(await withDb(database!, (handle) => checkLedger(handle.db))).toEqual([]);
}

/** After the restart: every number received once, the blast completed, the ledger exact. */
async function expectExactlyOnce(url: string, run: Awaited<ReturnType<typeof startBlast>>) {
  await untilAllRead(url, run);
  await expectSentOnce(url, run);
}

/** A fresh database and the local Cloud API; answers the port the servers will listen on. */
async function setUp(): Promise<number> {
  database = await processDatabase();
  const port = await freePort();
  whatsapp = await startLocalCloudApi({
    webhookUrl: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
    recipientGapMs: 0,
    webhookRetryMs: 500,
    webhookMaxAttempts: 8,
  });
  return port;
}

async function start(port: number, env: Record<string, string> = {}, launch?: Launch) {
  const child = spawnServer(database!, port, { ...DELIVERY_ENV, ...env }, launch);
  if (!launch) await waitHealthy(child);
  return child;
}

describe('a kill -9 in the middle of sending', () => {
  it('of the server: after the restart every number is sent exactly once', async () => {
    const port = await setUp();
    let server: ChildServer = await start(port);
    const run = await startBlast(server.url);
    await waitFor(() => whatsapp!.sends.length >= 40, 30_000, '40 sends');
    await server.kill('SIGKILL');
    const sentBefore = whatsapp!.sends.length;
    expect(sentBefore).toBeLessThan(150);
    const restarted = new Date().toISOString();
    server = await start(port);
    // The new server receives webhooks from its start: silence is counted from there too.
    const engine = await withDb(database!, (handle) =>
      handle.db.selectFrom('delivery_engine').select('webhooks_since').executeTakeFirstOrThrow(),
    );
    expect(engine.webhooks_since! >= restarted).toBe(true);
    await expectExactlyOnce(server.url, run);
  }, 150_000);

  it('of a separate worker: after the restart every number is sent exactly once', async () => {
    const port = await setUp();
    const server = await start(port, { SEBAR_DELIVERY_WORKER: 'off' });
    const alone = await start(port, {}, workerProcess);
    const run = await startBlast(server.url);
    await waitFor(() => whatsapp!.sends.length >= 40, 30_000, '40 sends');
    await alone.kill('SIGKILL');
    expect(whatsapp!.sends.length).toBeLessThan(150);
    // Two workers now share what is left.
    await start(port, {}, workerProcess);
    await start(port, {}, workerProcess);
    await expectExactlyOnce(server.url, run);
  }, 150_000);
});

describe('a worker frozen between its claims and their posts', () => {
  it('sends none of them when it wakes after another worker has sent them', async () => {
    const port = await setUp();
    const server = await start(port, { SEBAR_DELIVERY_WORKER: 'off' });
    const frozen = await start(port, {}, workerProcess);
    await start(port, {}, workerProcess);
    // Five a second: each worker holds the numbers claimed for its next slots, not yet posted.
    const run = await startBlast(server.url, 5);
    await waitFor(() => whatsapp!.sends.length >= 20, 30_000, '20 sends');
    const readCount = async () =>
      (
        await send({
          url: server.url,
          method: 'GET',
          path: `/api/client/blast-requests/${run.blast.id}`,
          token: run.token,
        })
      ).body.numbers.filter((n: any) => n.delivery.state === 'read').length;
    // Stopped (SIGSTOP) while it holds no lock: one frozen in a transaction stops the other
    // worker's sends or records too, so it is woken and stopped again until the other goes on.
    for (let tries = 1; ; tries++) {
      frozen.child.kill('SIGSTOP');
      const before = await readCount();
      const goesOn = await waitFor(async () => (await readCount()) >= before + 5, 6000, 'reads')
        .then(() => true)
        .catch(() => false);
      if (goesOn) break;
      frozen.child.kill('SIGCONT');
      if (tries === 5) throw new Error('the other worker never went on alone');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // The other worker takes back what the frozen one claimed (15 s of silence) and sends it.
    await untilAllRead(server.url, run);
    frozen.child.kill('SIGCONT');
    // Woken, the frozen worker finds its claims too old to post.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await expectSentOnce(server.url, run);
  }, 150_000);
});
