// What a gateway send's answer does to its number when the answer is not GOWS's: NOWEB names
// the message by its Baileys key only, and a proxy in front of WAHA may answer 502 for a message
// WAHA already sent. Either way the number is sent once and its acks settle it. A number that
// fails because WAHA cannot be reached says so.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { numberEnding } from '#server/test/delivery-fixture.ts';
import { startGatewayFixture, type GatewayFixture } from '#server/test/gateway-fixture.ts';

let f: GatewayFixture;
beforeAll(async () => {
  f = await startGatewayFixture({ waha: { sendAnswer: 'NOWEB' } });
  await f.addDevice('toko-1', '6281100000001');
});
afterAll(() => f?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('reads the message id from NOWEB’s key, so each number is sent once and its acks apply', async () => {
  const numbers = [numberEnding(9301, '0010'), numberEnding(9302, '0010')];
  const created = await f.blast(numbers);
  const done = await f.until(
    created.id,
    (b) => b.numbers.every((n: any) => n.delivery.state === 'delivered'),
    10_000,
  );
  for (const n of done.numbers) {
    const [send] = f.waha.sentTo(n.number);
    expect(f.waha.sentTo(n.number), n.number).toHaveLength(1);
    expect(n.delivery.provider_message_id).toBe(send!.id);
    expect(n.delivery.provider_message_id).toMatch(new RegExp(`^true_${n.number}@c\\.us_3EB0`));
  }
  expect(done).toMatchObject({ status: 'completed', successful_count: 2, refund_points: 0 });
});

it('sends nothing again after a proxy’s 502, and settles the number by its acks', async () => {
  // WAHA sends it; the proxy in front loses the answer and says 502.
  const number = numberEnding(9303, '0013');
  const created = await f.blast([number]);
  const done = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'read', 10_000);
  // A refusal would have been sent again after 50 ms and a pacing gap of 100-160 ms.
  await sleep(1000);
  expect(f.waha.sentTo(number)).toHaveLength(1);
  expect(done.numbers[0].delivery.provider_message_id).toBe(f.waha.sentTo(number)[0]!.id);
  expect(done).toMatchObject({ status: 'completed', successful_count: 1 });
});

it('names WAHA as what could not be reached when a number fails for it', async () => {
  await f.waha.close();
  const number = numberEnding(9304, '0010');
  const created = await f.blast([number]);
  // Tried three times (the fixture's attempts), 50 ms doubling apart, then failed and refunded.
  const done = await f.until(created.id, (b) => b.status === 'completed', 10_000);
  expect(done.numbers[0]).toMatchObject({
    status: 'failed',
    delivery: { state: 'failed', reason: 'WAHA tidak dapat dihubungi' },
  });
  expect(done.refund_points).toBe(1);
});
