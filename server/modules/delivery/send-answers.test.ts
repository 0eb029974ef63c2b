// What a send's answer does to its number when no webhook says more: an accepted send answered
// while the engine records others' results is recorded too (lost, its number would stay sending
// until the long wait), and a proxy's 502 page, which is not Meta's answer, is not taken for a
// refusal: the message may have gone, so the number waits for word of it instead of going again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';

/** Accepted, the answer held 400 ms: quick answers to later sends are recorded meanwhile. */
const SLOW = [numberEnding(8101, '3000'), numberEnding(8105, '3000')];
const QUICK = [8102, 8103, 8104, 8106, 8107].map((prefix) => numberEnding(prefix, '2000'));
/** Accepted by Meta; a proxy in front answers 502 with its own page. */
const BEHIND_PROXY = numberEnding(8110, '0018');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    // No status webhooks: the send's own answer is the only word of each message.
    whatsapp: {
      webhookUrl: undefined,
      outcomes: (to) =>
        SLOW.includes(to) ? 'timeout:400' : to === BEHIND_PROXY ? 'bad_gateway' : 'sent',
    },
    config: { delivery: { unansweredMs: 10 * 60 * 1000 } as any },
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
  // The retry backoff here is 50 ms: a refusal would have been sent again well within this wait.
  await new Promise((resolve) => setTimeout(resolve, 1000));
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
