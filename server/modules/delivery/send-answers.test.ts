// What a send's answer does to its number when no webhook says more: an accepted send answered
// while the engine records others' results is recorded too (lost, its number would stay sending
// until the long wait), and a proxy's 502 page, which is not Meta's answer, is not taken for a
// refusal: the message may have gone, so the number waits for word of it instead of going again.
// And the answer to a message that a webhook already reported failed (it comes late) does not
// name the number's next message, whether that one waits to go or is already on its way. A number
// never heard of after all its attempts fails and is refunded, as one whose every send meets a
// certificate Sebar refuses (nothing was sent).
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookError } from '#local-apis/cloud-api/errors.ts';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';
import { readUntil, waitFor } from '#server/test/processes.ts';
import { markWebhooksUp, numberKey, requeueUnanswered } from './outbox.ts';
import { callbackKey } from './send-results.ts';

/** Accepted, the answer held 400 ms: quick answers to later sends are recorded meanwhile. */
const SLOW = [numberEnding(8101, '3000'), numberEnding(8105, '3000')];
const QUICK = [8102, 8103, 8104, 8106, 8107].map((prefix) => numberEnding(prefix, '2000'));
/** Accepted by Meta; a proxy in front answers 502 with its own page. */
const BEHIND_PROXY = numberEnding(8110, '0018');
/** The first send's answer is held past the failure's webhook: 0.5 s, then 1.5 s. */
const ANSWERED_WHILE_WAITING = numberEnding(8120, '4000');
const ANSWERED_WHILE_RESENT = numberEnding(8121, '4000');
/** Meta takes every send, but no answer and no webhook ever comes back. */
const NEVER_HEARD = numberEnding(8130, '5000');
const LOST_LATE = numberEnding(8131, '5000');
const LOST_IN_OUTAGE = numberEnding(8132, '5000');
const LOST_BESIDE_OTHERS = numberEnding(8133, '5000');
const LOST_THEN_DELIVERED = numberEnding(8134, '5000');
const sends = new Map<string, number>();
/** The outcome of each send of the two above: the answers held as said, later ones held 2.5 s. */
function lateAnswer(to: string) {
  const n = (sends.get(to) ?? 0) + 1;
  sends.set(to, n);
  if (to === ANSWERED_WHILE_WAITING) return n === 1 ? 'timeout:500' : 'sent';
  return n === 1 ? 'timeout:1500' : 'timeout:2500';
}

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    // No status webhooks: the send's own answer is the only word of each message.
    whatsapp: {
      webhookUrl: undefined,
      outcomes: (to) => {
        if (SLOW.includes(to)) return 'timeout:400';
        if (to === BEHIND_PROXY) return 'bad_gateway';
        if (to.endsWith('5000')) return 'lost_answer';
        return to.endsWith('4000') ? lateAnswer(to) : 'sent';
      },
    },
    // A transient failure is sent again after 1 s.
    config: { delivery: { unansweredMs: 10 * 60 * 1000, retryBaseMs: 1000 } as any },
  });
});
afterAll(() => f?.close());

it('records every accepted send, however its answer interleaves with the others', async () => {
  // Twenty a second: each slow answer comes after several quick ones were recorded.
  await f.configure({ messages_per_second: 20 });
  const created = await f.blast([SLOW[0]!, ...QUICK.slice(0, 3), SLOW[1]!, ...QUICK.slice(3)]);
  const done = await f.until(
    created.id,
    (b) => b.numbers.every((n: any) => n.delivery.state === 'sent'),
    5000,
  );
  for (const n of done.numbers) {
    expect(n.delivery.provider_message_id, n.number).toMatch(/^wamid\./);
    expect(f.whatsapp.sentTo(n.number)).toBe(1);
  }
});

it('sends nothing again after a 502 that is not Meta’s, and settles the number by its webhook', async () => {
  const created = await f.blast([BEHIND_PROXY]);
  // A refusal would have been sent again after the 1 s backoff, well within this wait.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const waiting = await f.read(created.id);
  expect(waiting.numbers[0]).toMatchObject({ status: 'pending', delivery: { state: 'sending' } });
  expect(f.whatsapp.sentTo(BEHIND_PROXY)).toBe(1);

  const [send] = f.whatsapp.sends.filter((s) => s.to === BEHIND_PROXY);
  await f.postStatus({
    id: send!.wamid,
    status: 'delivered',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: BEHIND_PROXY,
    biz_opaque_callback_data: send!.biz_opaque_callback_data,
  });
  const settled = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'delivered');
  expect(settled).toMatchObject({ status: 'completed', successful_count: 1, refund_points: 0 });
  expect(settled.numbers[0].delivery.provider_message_id).toBe(send!.wamid);
  expect(f.whatsapp.sentTo(BEHIND_PROXY)).toBe(1);
});

it('keeps the late answer of a message reported failed off the number’s next message', async () => {
  const created = await f.blast([ANSWERED_WHILE_WAITING, ANSWERED_WHILE_RESENT]);
  const first = (to: string) =>
    readUntil(
      async () => f.whatsapp.sends.find((s) => s.to === to),
      (send) => send !== undefined,
      5000,
      `the first send to ${to}`,
    );
  // Both first messages fail by webhook (the pair rate limit: sent again after 1 s) while their
  // answers are held: one answer comes while its number waits, one while it is sent again.
  for (const [idx, to] of [ANSWERED_WHILE_WAITING, ANSWERED_WHILE_RESENT].entries()) {
    const send = await first(to);
    await f.postStatus({
      id: send!.wamid,
      status: 'failed',
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: to,
      biz_opaque_callback_data: `${created.id}/${idx}/1`,
      errors: [webhookError(131056)],
    });
  }
  const done = await f.until(
    created.id,
    (b) => b.numbers.every((n: any) => n.delivery.state === 'sent'),
    10_000,
  );
  for (const n of done.numbers) {
    const [, second] = f.whatsapp.sends.filter((s) => s.to === n.number);
    expect(n.delivery, n.number).toMatchObject({
      attempts: 2,
      provider_message_id: second!.wamid,
      error_code: null,
    });
  }
});

it('fails a number sent as often as it may with never a word back, and refunds it', async () => {
  const created = await f.blast([NEVER_HEARD]);
  // The sweep of silent numbers, as a worker makes it once their wait is over.
  const sweep = { cloudApiMs: 0, gatewayMs: 0, maxAttempts: 3 };
  for (let sent = 1; sent <= 3; sent += 1) {
    await waitFor(() => f.whatsapp.sentTo(NEVER_HEARD) === sent, 5000, `send ${sent}`);
    // Not while the worker still has it in hand (its answer not read yet, as after a freeze).
    const inHand = new Set([numberKey(created.id, 0)]);
    expect(await requeueUnanswered(f.server.database, sweep, Date.now(), inHand)).toBe(0);
    expect(await requeueUnanswered(f.server.database, sweep)).toBe(1);
  }
  const done = await f.until(created.id, (b) => b.status === 'completed');
  expect(done.numbers[0]).toMatchObject({
    status: 'failed',
    delivery: { state: 'failed', reason: 'Tidak ada kabar dari WhatsApp setelah 3 kali dikirim' },
  });
  expect(done.refund_points).toBe(1);
  expect(f.whatsapp.sentTo(NEVER_HEARD)).toBe(3);
});

it('waits for the webhook of a send whose answer was lost the whole wait after the loss', async () => {
  const created = await f.blast([LOST_LATE]);
  const row = () =>
    f.server.database.db
      .selectFrom('blast_numbers')
      .select(['state', 'claimed_at', 'answer_lost_at'])
      .where('blast_id', '=', created.id)
      .executeTakeFirstOrThrow();
  const lost = await readUntil(row, (r) => r.answer_lost_at !== null, 5000, 'the lost answer');
  expect(lost.state).toBe('sending');
  // Its send took long (a starved process, a slow network): claimed ten minutes before it ended.
  await f.server.database.db
    .updateTable('blast_numbers')
    .set({ claimed_at: new Date(Date.parse(lost.answer_lost_at!) - 600_000).toISOString() })
    .where('blast_id', '=', created.id)
    .execute();
  const sweep = { cloudApiMs: 15_000, gatewayMs: 15_000, maxAttempts: 1 };
  const lostAt = Date.parse(lost.answer_lost_at!);
  expect(await requeueUnanswered(f.server.database, sweep, lostAt + 14_000)).toBe(0);
  // The wait over with no word: as sent once already, it fails and is refunded.
  expect(await requeueUnanswered(f.server.database, sweep, lostAt + 15_001)).toBe(1);
  const done = await f.until(created.id, (b) => b.status === 'completed');
  expect([done.refund_points, f.whatsapp.sentTo(LOST_LATE)]).toEqual([1, 1]);
});

it('tries again, then fails, a number whose sends meet a certificate Sebar refuses', async () => {
  const tls = (name: string) => readFileSync(new URL(`../../test/tls/${name}`, import.meta.url));
  let requests = 0;
  const proxy = https.createServer(
    { key: tls('self-signed.key'), cert: tls('self-signed.crt') },
    (_request, response) => {
      requests += 1;
      response.end();
    },
  );
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = proxy.address() as AddressInfo;
    await f.configure({ graph_url: `https://127.0.0.1:${port}` });
    const number = numberEnding(8140, '2000');
    const created = await f.blast([number]);
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done.numbers[0]).toMatchObject({
      status: 'failed',
      delivery: { attempts: 3, reason: 'WhatsApp Cloud API tidak dapat dihubungi' },
    });
    expect(done.refund_points).toBe(1);
    expect(requests).toBe(0);
  } finally {
    await f.configure({});
    await new Promise((resolve) => proxy.close(resolve));
  }
});

/** Waits until the number's send ended with its answer lost; answers when (epoch ms). */
async function lostAnswer(blastId: string) {
  const row = () =>
    f.server.database.db
      .selectFrom('blast_numbers')
      .select(['state', 'answer_lost_at'])
      .where('blast_id', '=', blastId)
      .executeTakeFirstOrThrow();
  const lost = await readUntil(row, (r) => r.answer_lost_at !== null, 5000, 'the lost answer');
  expect(lost.state).toBe('sending');
  return Date.parse(lost.answer_lost_at!);
}

it('counts a lost send’s silence from the server’s start, when it started later', async () => {
  const created = await f.blast([LOST_IN_OUTAGE]);
  const lostAt = await lostAnswer(created.id);
  // Sebar was down from the loss and started again 10 s later: Meta's retries of the webhooks
  // it could not deliver meanwhile come after that. The server's start notes it.
  await markWebhooksUp(f.server.database, lostAt + 10_000);
  const sweep = { cloudApiMs: 15_000, gatewayMs: 15_000, maxAttempts: 3 };
  expect(await requeueUnanswered(f.server.database, sweep, lostAt + 15_001)).toBe(0);
  expect(await requeueUnanswered(f.server.database, sweep, lostAt + 24_000)).toBe(0);
  expect(await requeueUnanswered(f.server.database, sweep, lostAt + 25_001)).toBe(1);
  await markWebhooksUp(f.server.database, 0);
});

it('is not held up by a status of another app that waits for an answer never coming', async () => {
  const created = await f.blast([LOST_BESIDE_OTHERS]);
  const lostAt = await lostAnswer(created.id);
  // A status naming a message Sebar never sent and no callback of Sebar's: kept, then put back
  // to wait for a send's answer (a webhook can come before it), for a minute at most.
  await f.postStatus({
    id: 'wamid.another-app',
    status: 'delivered',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: '6281299990000',
  });
  const event = () =>
    f.server.database.db
      .selectFrom('webhook_events')
      .select(['received_at', 'due_at', 'processed_at'])
      .where('body', 'like', '%another-app%')
      .executeTakeFirstOrThrow();
  const waiting = await readUntil(event, (e) => e.due_at! > e.received_at, 5000, 'put back');
  expect(waiting.processed_at).toBeNull();
  // Six seconds after it came, it still waits on purpose: the workers are not behind, and the
  // silent number goes back to the queue.
  const at = Math.max(Date.parse(waiting.received_at) + 6000, lostAt + 1);
  expect(Date.parse(waiting.due_at!)).toBeGreaterThanOrEqual(at - 5000);
  const sweep = { cloudApiMs: 0, gatewayMs: 0, maxAttempts: 3 };
  expect(await requeueUnanswered(f.server.database, sweep, at)).toBe(1);
});

it('takes a late delivered of a message the sweep took back: the number is not sent again', async () => {
  const created = await f.blast([LOST_THEN_DELIVERED]);
  await lostAnswer(created.id);
  const sweep = { cloudApiMs: 0, gatewayMs: 0, maxAttempts: 8 };
  // The sweep took it back (no word of it), and it went a second time, its answer lost again.
  expect(await requeueUnanswered(f.server.database, sweep)).toBe(1);
  await waitFor(() => f.whatsapp.sentTo(LOST_THEN_DELIVERED) === 2, 5000, 'the second send');
  // Then Meta's word of the first message comes: it was delivered after all.
  await f.postStatus({
    id: 'wamid.first-of-8134',
    status: 'delivered',
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: LOST_THEN_DELIVERED,
    biz_opaque_callback_data: callbackKey(created.id, 0, 1),
  });
  const done = await f.until(created.id, (b) => b.status === 'completed');
  expect(done.numbers[0]).toMatchObject({ status: 'success', delivery: { state: 'delivered' } });
  expect(done.refund_points).toBe(0);
  // Nothing more goes out, sweep or not.
  expect(await requeueUnanswered(f.server.database, sweep)).toBe(0);
  expect(f.whatsapp.sentTo(LOST_THEN_DELIVERED)).toBe(2);
});
