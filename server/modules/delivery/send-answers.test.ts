// A send's answer that comes while the engine records other sends' results is recorded too: with
// no webhook to settle it, a lost result would leave its number sending until the long wait.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';

/** Accepted, the answer held 400 ms: quick answers to later sends are recorded meanwhile. */
const SLOW = [numberEnding(8101, '3000'), numberEnding(8105, '3000')];
const QUICK = [8102, 8103, 8104, 8106, 8107].map((prefix) => numberEnding(prefix, '2000'));

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    // No status webhooks: the send's own answer is the only word of each message.
    whatsapp: {
      webhookUrl: undefined,
      outcomes: (to) => (SLOW.includes(to) ? 'timeout:400' : 'sent'),
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
