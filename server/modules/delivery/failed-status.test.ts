// A failure Meta reports by webhook rather than in the send's answer: a restricted sender pauses
// the engine and a rate limit is retried, as when the send itself is refused; the number's message
// never arrived, so it is sent again, once; a late report of that first message changes nothing.
// And a header image whose upload is lost: no message was posted, so the number goes again soon
// (not after the long wait for a message whose answer was lost). A number sent again shows no error
// once its new message gets through, even when the message's statuses outrun the send's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookError } from '#local-apis/cloud-api/errors.ts';
import { firstOutcome } from '#local-apis/cloud-api/outcomes.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';
import { readUntil } from '#server/test/processes.ts';

/** Accepted, then a failed status: spam rate limit (131048), the first time only. */
const SPAM_LIMITED = numberEnding(7301, '0016');
/** Accepted, then a failed status: pair rate limit (131056), the first time only. */
const PAIR_LIMITED = numberEnding(7302, '0017');
/** The same, for a late report of the first message. */
const LATE_REPORTED = numberEnding(7304, '0017');
/** Refused once with a rate limit (130429); then accepted, its answer held while its statuses go. */
const OUTRUNS_ITS_ANSWER = numberEnding(7305, '2000');
let outrunnerSends = 0;
/** Accepted, then a failed status: healthy ecosystem engagement (131049), final. */
const HELD_BY_META = numberEnding(7303, '0002');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    whatsapp: {
      outcomes: firstOutcome(
        {
          [SPAM_LIMITED]: 'failed:131048x1',
          [PAIR_LIMITED]: 'failed:131056x1',
          [LATE_REPORTED]: 'failed:131056x1',
          [HELD_BY_META]: 'failed:131049',
        },
        (to) => {
          if (to !== OUTRUNS_ITS_ANSWER) return undefined;
          outrunnerSends += 1;
          return outrunnerSends === 1 ? 'reject:130429' : 'timeout:400';
        },
      ),
      mediaUploadsDropped: 1,
    },
    // The pause does not end by itself within the test: the admin resumes. A number sent with
    // no word of it is sent again only after the production wait.
    config: { delivery: { pauseMs: 60_000, unansweredMs: 10 * 60 * 1000 } as any },
  });
});
afterAll(() => f?.close());

/** The engine's row (made when the engine first claims). */
const engineRow = () =>
  f.server.database.db.selectFrom('delivery_engine').selectAll().executeTakeFirst();
const balance = async () =>
  (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body.points;

/** Numbers that are simply read: sent after the first, they keep the blast open meanwhile. */
const others = (from: number, count = 3) =>
  Array.from({ length: count }, (_, i) => numberEnding(from + i, '2000'));

describe('a failed status naming a restricted sender (131048)', () => {
  it('pauses the engine, keeps the number waiting, and sends it once more on resume', async () => {
    // One a second: the failure comes back long before the last numbers are taken to send.
    await f.configure({ messages_per_second: 1 });
    const before = await balance();
    const rest = others(7310, 4);
    const created = await f.blast([SPAM_LIMITED, ...rest]);
    const paused = await readUntil(engineRow, (e) => e?.state === 'paused', 10_000, 'the pause');
    expect(paused).toMatchObject({ error_code: 131048 });
    expect(paused!.reason).toBe('Batas spam tercapai: pengiriman dari nomor ini dibatasi');
    const waiting = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'queued');
    expect(waiting.status).toBe('pending');
    expect(waiting.numbers[0]).toMatchObject({ status: 'pending' });
    expect(waiting.numbers[0].delivery).toMatchObject({
      error_code: 131048,
      provider_message_id: null,
      sent_at: null,
      failed_at: null,
    });
    expect(waiting.numbers[0].delivery.reason).toMatch(/dibatasi/);
    // Nothing more is sent while the engine is paused (once the sends it had taken went out).
    await new Promise((resolve) => setTimeout(resolve, 700));
    const sentSoFar = f.whatsapp.sends.length;
    expect(rest.filter((number) => f.whatsapp.sentTo(number) === 0).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(f.whatsapp.sends.length).toBe(sentSoFar);
    // Meta posts the failed message's sent late, after its failed: failed is final for that
    // message, so the number still waits to go again (it was taken as sent and never resent).
    const [first] = f.whatsapp.sends.filter((s) => s.to === SPAM_LIMITED);
    const late = await f.postStatus({
      id: first!.wamid,
      status: 'sent',
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: first!.to,
      biz_opaque_callback_data: first!.biz_opaque_callback_data!,
    });
    const kept = f.server.database.db
      .selectFrom('webhook_events')
      .select('processed_at')
      .where('body', '=', late);
    await readUntil(
      () => kept.executeTakeFirst(),
      (e) => !!e?.processed_at,
      5000,
      'applied',
    );
    const still = await f.read(created.id);
    expect(still.numbers[0]).toMatchObject({ status: 'pending' });
    expect(still.numbers[0].delivery).toMatchObject({ state: 'queued', sent_at: null });

    await f.configure({ messages_per_second: 1000 });
    const resumed = await f.server.api('POST', '/api/admin/delivery/resume', {
      token: f.server.adminToken,
    });
    expect(resumed.status).toBe(200);
    const done = await f.until(
      created.id,
      (b) => b.status === 'completed' && b.numbers[0].delivery.state === 'read',
    );
    expect(done.numbers.map((n: any) => n.status)).toEqual(Array(5).fill('success'));
    expect(done.numbers[0].delivery).toMatchObject({ attempts: 2, error_code: null });
    expect(f.whatsapp.sentTo(SPAM_LIMITED)).toBe(2);
    for (const number of rest) expect(f.whatsapp.sentTo(number)).toBe(1);
    expect(done.refund_points).toBe(0);
    expect(await balance()).toBe(before - 5);
  });
});

describe('a failed status naming a rate limit (131056)', () => {
  it('sends the number again after a wait, without pausing; a final failure is not retried', async () => {
    await f.configure({ messages_per_second: 2 });
    const created = await f.blast([PAIR_LIMITED, HELD_BY_META, ...others(7320)]);
    const done = await f.until(
      created.id,
      (b) => b.status === 'completed' && b.numbers[0].delivery.state === 'read',
    );
    await f.configure({ messages_per_second: 1000 });
    expect(done.numbers.map((n: any) => n.status)).toEqual([
      'success',
      'failed',
      'success',
      'success',
      'success',
    ]);
    expect(done.numbers[0].delivery).toMatchObject({ attempts: 2 });
    expect(done.numbers[1].delivery).toMatchObject({
      state: 'failed',
      error_code: 131049,
      attempts: 1,
    });
    expect(f.whatsapp.sentTo(PAIR_LIMITED)).toBe(2);
    expect(f.whatsapp.sentTo(HELD_BY_META)).toBe(1);
    expect(done.refund_points).toBe(1);
    expect((await engineRow())!.state).toBe('running');
    // Each message names its attempt.
    const [first, second] = f.whatsapp.sends.filter((s) => s.to === PAIR_LIMITED);
    expect(first!.biz_opaque_callback_data).toBe(`${created.id}/0/1`);
    expect(second!.biz_opaque_callback_data).toBe(`${created.id}/0/2`);
  });

  it('takes no late report of the first message for the second one', async () => {
    await f.configure({ messages_per_second: 2 });
    const created = await f.blast([LATE_REPORTED, ...others(7330)]);
    await f.until(
      created.id,
      (b) => b.status === 'completed' && b.numbers[0].delivery.state === 'read',
    );
    await f.configure({ messages_per_second: 1000 });
    await f.whatsapp.settled();
    const [first] = f.whatsapp.sends.filter((s) => s.to === LATE_REPORTED);
    // The number as it was between its second message's sent and delivered.
    await f.server.database.db
      .updateTable('blast_numbers')
      .set({ state: 'sent', delivered_at: null, read_at: null })
      .where('blast_id', '=', created.id)
      .where('idx', '=', 0)
      .execute();
    const before = await f.read(created.id);
    // Meta posts the first message's failure again, and its sent (reordered, new bytes).
    for (const status of ['failed', 'sent'] as const) {
      await f.postStatus({
        id: first!.wamid,
        status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: first!.to,
        biz_opaque_callback_data: `${created.id}/0/1`,
        ...(status === 'failed' ? { errors: [webhookError(131056)] } : {}),
      });
    }
    await readUntil(
      () =>
        f.server.database.db
          .selectFrom('webhook_events')
          .select('id')
          .where('processed_at', 'is', null)
          .execute(),
      (rows) => rows.length === 0,
      10_000,
      'the reports applied',
    );
    const after = await f.read(created.id);
    expect(after.numbers[0]).toEqual(before.numbers[0]);
    expect(after.numbers[0]).toMatchObject({ status: 'success', delivery: { state: 'sent' } });
    expect(after.refund_points).toBe(0);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  });
});

describe('a number sent again', () => {
  it('shows no error once its message gets through, though the statuses outrun the answer', async () => {
    const created = await f.blast([OUTRUNS_ITS_ANSWER]);
    const done = await f.until(
      created.id,
      (b) => b.numbers[0].delivery.state === 'read' && b.numbers[0].delivery.provider_message_id,
    );
    expect(done.numbers[0]).toMatchObject({ status: 'success' });
    expect(done.numbers[0].delivery).toMatchObject({
      attempts: 2,
      error_code: null,
      error_title: null,
      reason: null,
    });
    expect(f.whatsapp.sentTo(OUTRUNS_ITS_ANSWER)).toBe(1);
  });
});

describe('a header image whose upload loses its connection', () => {
  it('sends the number again soon: no message was posted', async () => {
    const number = numberEnding(7340, '2000');
    const created = await f.blast([number], {
      template_id: '1029384756000001',
      parameters: ['Budi', '20%'],
      image_url: await f.image(),
    });
    const done = await f.until(created.id, (b) => b.status === 'completed', 10_000);
    expect(done.numbers[0]).toMatchObject({ status: 'success', delivery: { attempts: 2 } });
    const uploads = f.whatsapp.requests.filter((r) => r.path.endsWith('/media'));
    expect(uploads).toHaveLength(2);
    expect(f.whatsapp.sentTo(number)).toBe(1);
  });
});
