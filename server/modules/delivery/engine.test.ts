// The delivery engine against the local Cloud API: a whole blast sent, every number's fate and
// reason, refunds through the ledger exactly once, and each number sent exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIVEN_UP } from '#common/whatsapp-errors.ts';
import { firstOutcome, outcomeBySuffix } from '#local-apis/cloud-api/outcomes.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { IMAGE_MISSING } from '#server/modules/delivery/outbox.ts';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';

/** Meta answers this number's first send 190 (a bad token), which stops the engine. */
const STOPS_ONCE = numberEnding(9570, '1900');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    whatsapp: { outcomes: firstOutcome({ [STOPS_ONCE]: 'reject:190x1' }, outcomeBySuffix) },
  });
});
afterAll(() => f?.close());

const balance = async () =>
  (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body.points;
const history = async () =>
  (
    await f.server.api('GET', '/api/client/transactions?page_size=100', {
      token: f.client.token,
    })
  ).body;

describe('a 500-number template blast', () => {
  it('sends each number once, records each fate and refunds exactly the failed and no-WA ones', async () => {
    const suffix = (i: number) => (i % 50 === 1 ? '0001' : i % 50 === 2 ? '0002' : '2000');
    const numbers = Array.from({ length: 500 }, (_, i) => numberEnding(i, suffix(i)));
    const before = await balance();
    const created = await f.blast(numbers);
    expect(created.delivery_mode).toBe('cloud_api');
    expect(created.message).toBe('Tagihan Anda sebesar Rp150.000 jatuh tempo besok. Terima kasih.');
    expect(await balance()).toBe(before - 500);

    const done = await f.until(
      created.id,
      (b) =>
        b.status === 'completed' &&
        b.numbers.every((n: any) => n.delivery.state === 'read' || n.delivery.state === 'failed'),
      100_000,
    );
    await f.whatsapp.settled();
    expect(done.successful_count).toBe(480);
    expect(done.no_wa_count).toBe(10);
    expect(done.failed_count).toBe(10);
    expect(done.refund_points).toBe(20);
    expect(await balance()).toBe(before - 480);

    for (const n of done.numbers) {
      expect(f.whatsapp.sentTo(n.number), n.number).toBe(1);
      const kind = suffix(n.index);
      if (kind === '0001') {
        expect(n).toMatchObject({
          status: 'no_wa',
          delivery: { state: 'failed', error_code: 131026 },
        });
        expect(n.delivery.reason).toBe(
          'Nomor tidak terdaftar di WhatsApp atau tidak dapat menerima pesan',
        );
      } else if (kind === '0002') {
        expect(n).toMatchObject({
          status: 'failed',
          delivery: { state: 'failed', error_code: 131049 },
        });
        expect(n.delivery.reason).toMatch(/promosi/);
      } else {
        expect(n).toMatchObject({ status: 'success', delivery: { state: 'read', attempts: 1 } });
        expect(n.delivery.provider_message_id).toMatch(/^wamid\./);
        for (const at of ['queued_at', 'sent_at', 'delivered_at', 'read_at'])
          expect(n.delivery[at], at).not.toBeNull();
      }
    }
    // Refunded through the ledger: at completion, then by difference as late failures arrive
    // (a message accepted first, failed after), 20 points in all.
    const refunds = (await history()).items.filter((t: any) => t.type === 'refund');
    expect(refunds.reduce((sum: number, t: any) => sum + t.delta, 0)).toBe(20);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  }, 120_000);
});

describe('outcomes one number at a time', () => {
  /** A one-number blast, once its number reached a final state (read or failed). */
  const one = async (suffix: string, prefix: number) => {
    const created = await f.blast([numberEnding(prefix, suffix)]);
    return f.until(created.id, (b) => ['read', 'failed'].includes(b.numbers[0].delivery.state));
  };

  it('a lost answer: the webhook names the message, the recipient gets it once', async () => {
    const done = await one('0010', 9001);
    const [n] = done.numbers;
    await f.until(done.id, (b) => b.numbers[0].delivery.state === 'read');
    expect(n.status).toBe('success');
    expect(f.whatsapp.sentTo(n.number)).toBe(1);
    expect((await f.read(done.id)).numbers[0].delivery.provider_message_id).toMatch(/^wamid\./);
  });

  it('statuses out of order (read before delivered, no sent) end as read with every time kept', async () => {
    const done = await one('0012', 9002);
    const read = await f.until(done.id, (b) => b.numbers[0].delivery.delivered_at !== null);
    expect(read.numbers[0].delivery).toMatchObject({ state: 'read' });
    expect(read.numbers[0].delivery.read_at).not.toBeNull();
    expect(read.numbers[0].delivery.sent_at).not.toBeNull();
  });

  it('retries a rate limit (130429) until it goes through; never retries 131026', async () => {
    const limited = await one('0005', 9003);
    expect(limited.numbers[0]).toMatchObject({ status: 'success', delivery: { attempts: 3 } });
    expect(f.whatsapp.sentTo(limited.numbers[0].number)).toBe(1);
    const noWa = await one('0001', 9004);
    expect(noWa.numbers[0]).toMatchObject({ status: 'no_wa', delivery: { attempts: 1 } });
    // Accepted first (the blast completed), failed after: the late failure is refunded.
    expect(noWa).toMatchObject({ status: 'completed', no_wa_count: 1, refund_points: 1 });
    const tries = f.whatsapp.requests.filter(
      (r: any) => r.method === 'POST' && r.body?.to === noWa.numbers[0].number,
    );
    expect(tries).toHaveLength(1);
  });

  it('gives up on a server error after the last attempt and refunds the number', async () => {
    const done = await one('0013', 9005);
    expect(done.numbers[0]).toMatchObject({
      status: 'failed',
      delivery: { state: 'failed', attempts: 3, error_code: 131000, reason: GIVEN_UP },
    });
    expect(done.refund_points).toBe(1);
  });
});

describe('a duplicated webhook', () => {
  it('changes the number once when the same status is posted twice at once', async () => {
    const created = await f.blast([numberEnding(9100, '0011')]);
    const done = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'read');
    await f.whatsapp.settled();
    expect(done.numbers[0].status).toBe('success');
    const posted = f.whatsapp.webhooks.filter((w: any) =>
      w.body.includes(done.numbers[0].delivery.provider_message_id),
    );
    // Each status came twice; each kept once.
    expect(posted.length).toBe(6);
    const kept = await f.server.database.db.selectFrom('webhook_events').select('body').execute();
    const mine = kept.filter((e) => e.body.includes(done.numbers[0].delivery.provider_message_id));
    expect(mine).toHaveLength(3);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  });
});

describe('a template with a header image', () => {
  const mediaUploads = () =>
    f.whatsapp.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/media')).length;
  const headerMedia = (send: { components?: unknown }) =>
    (send.components as { parameters: { image?: { id: string } }[] }[])[0]!.parameters[0]!.image!
      .id;

  it('uploads the image to WhatsApp once and sends every number with its media id', async () => {
    const imageUrl = await f.image();
    const uploadsBefore = mediaUploads();
    // Five a second: one claim's numbers wait at their slots, the later ones after the upload.
    await f.configure({ messages_per_second: 5 });
    const numbers = Array.from({ length: 5 }, (_, i) => numberEnding(9500 + i, '2000'));
    const created = await f.blast(numbers, {
      template_id: '1029384756000001',
      parameters: ['Budi', '20%'],
      image_url: imageUrl,
    });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    await f.configure({ messages_per_second: 1000 });
    expect(done.successful_count).toBe(5);
    expect(mediaUploads() - uploadsBefore).toBe(1);
    const mediaId = [...f.whatsapp.media.keys()].at(-1);
    const sends = f.whatsapp.sends.filter((s) => numbers.includes(s.to));
    expect(sends).toHaveLength(5);
    for (const send of sends) {
      expect(send.template).toBe('promo_bulanan');
      expect(send.components).toEqual([
        { type: 'header', parameters: [{ type: 'image', image: { id: mediaId } }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Budi' },
            { type: 'text', text: '20%' },
          ],
        },
      ]);
    }
  });
  it('uploads the image again once Meta would no longer hold the first upload', async () => {
    const imageUrl = await f.image();
    const uploadsBefore = mediaUploads();
    // The image is uploaded, then the send meets 190 and the engine stops until resumed.
    const created = await f.blast([STOPS_ONCE], {
      template_id: '1029384756000001',
      parameters: ['Budi', '20%'],
      image_url: imageUrl,
    });
    await f.until(created.id, (b) => b.numbers[0].delivery.error_code === 190);
    expect(mediaUploads() - uploadsBefore).toBe(1);
    const first = [...f.whatsapp.media.keys()].at(-1);
    // Thirty days pass before the admin resumes: Meta no longer holds that upload.
    const month = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString();
    await f.server.database.db
      .updateTable('blasts')
      .set({ media_uploaded_at: month })
      .where('id', '=', created.id)
      .execute();
    const resumed = await f.server.api('POST', '/api/admin/delivery/resume', {
      token: f.server.adminToken,
    });
    expect(resumed.status).toBe(200);
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect([done.successful_count, done.refund_points]).toEqual([1, 0]);
    expect(mediaUploads() - uploadsBefore).toBe(2);
    const sent = headerMedia(f.whatsapp.sends.find((s) => s.to === STOPS_ONCE)!);
    expect(sent).not.toBe(first);
    expect(f.whatsapp.media.has(sent)).toBe(true);
    const kept = await f.server.database.db
      .selectFrom('blasts')
      .select(['media_id', 'media_uploaded_at'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(kept.media_id).toBe(sent);
    expect(kept.media_uploaded_at! > month).toBe(true);
  });
  it('fails each number unsent, refunded, when the image is gone from Sebar', async () => {
    const imageUrl = await f.image();
    await f.server.context.files.remove(imageUrl.split('/').pop()!);
    const uploadsBefore = mediaUploads();
    const numbers = [numberEnding(9560, '2000'), numberEnding(9561, '2000')];
    const created = await f.blast(numbers, {
      template_id: '1029384756000001',
      parameters: ['Budi', '20%'],
      image_url: imageUrl,
    });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect([done.failed_count, done.refund_points]).toEqual([2, 2]);
    for (const { status, delivery } of done.numbers) {
      expect([status, delivery.state, delivery.attempts]).toEqual(['failed', 'failed', 1]);
      expect(delivery.reason).toBe(IMAGE_MISSING);
    }
    expect(mediaUploads()).toBe(uploadsBefore);
    expect(f.whatsapp.sends.filter((s) => numbers.includes(s.to))).toEqual([]);
  });
});

describe('a template with a text header and a URL button', () => {
  it('sends the header’s value, the body’s and the button’s end as Meta’s components', async () => {
    const numbers = [numberEnding(9550, '2000'), numberEnding(9551, '2000')];
    const created = await f.blast(numbers, {
      template_id: '1029384756000007',
      parameters: { 'header.1': 'Kilat', '1': 'Budi', '2': 'HEMAT50', 'button.0': 'kilat-7' },
    });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect([done.successful_count, done.refund_points]).toEqual([2, 0]);
    const sends = f.whatsapp.sends.filter((s) => numbers.includes(s.to));
    expect(sends).toHaveLength(2);
    for (const send of sends) {
      expect(send.template).toBe('promo_kilat');
      expect(send.components).toEqual([
        { type: 'header', parameters: [{ type: 'text', text: 'Kilat' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Budi' },
            { type: 'text', text: 'HEMAT50' },
          ],
        },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: 'kilat-7' }],
        },
      ]);
    }
  });
});

describe('a template that takes no values', () => {
  it('is sent with no components, as Meta’s own examples send one', async () => {
    const admin = f.server.adminToken;
    f.whatsapp.options.templates.push({
      id: '1029384756000099',
      name: 'jam_buka',
      language: 'id',
      status: 'APPROVED',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      components: [{ type: 'BODY', text: 'Toko kami buka setiap hari pukul 08.00-21.00.' }],
    });
    const synced = await f.server.api('POST', '/api/admin/delivery/templates/sync', {
      token: admin,
    });
    expect(synced.status).toBe(200);
    const enabled = await f.server.api('PUT', '/api/admin/delivery/templates/1029384756000099', {
      token: admin,
      body: { enabled: true },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);

    const number = numberEnding(9560, '2000');
    const created = await f.blast([number], { template_id: '1029384756000099', parameters: {} });
    expect(created.message).toBe('Toko kami buka setiap hari pukul 08.00-21.00.');
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done.successful_count).toBe(1);
    const [send, ...again] = f.whatsapp.sends.filter((s) => s.to === number);
    expect(again).toHaveLength(0);
    expect(send!.template).toBe('jam_buka');
    expect(send!.components).toBeUndefined();
  });
});

describe('a status that comes before its send is recorded', () => {
  /** Posts a signed 'delivered' status for message `id`, as Meta does; answers its body. */
  const postStatus = (id: string, recipient: string) =>
    f.postStatus({
      id,
      status: 'delivered',
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: recipient,
    });

  it('waits for the answer when it carries no key, then moves the number', async () => {
    const created = await f.blast([numberEnding(9600, '0015')]);
    const sent = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'sent');
    await f.whatsapp.settled();
    const late = 'wamid.terlambat-0001';
    const body = await postStatus(late, sent.numbers[0].number);
    // No number has that message id yet: the event waits, unapplied.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await f.server.database.db
      .selectFrom('webhook_events')
      .select('processed_at')
      .where('body', '=', body)
      .executeTakeFirstOrThrow();
    expect(waiting.processed_at).toBeNull();
    // The answer naming it is recorded (as when the webhook outruns the send's answer).
    await f.server.database.db
      .updateTable('blast_numbers')
      .set({ provider_message_id: late })
      .where('blast_id', '=', created.id)
      .execute();
    const moved = await f.until(created.id, (b) => b.numbers[0].delivery.state === 'delivered');
    expect(moved.numbers[0].delivery.delivered_at).not.toBeNull();
  });

  it("does not hold up the statuses behind it, however many name no message of Sebar's", async () => {
    // More statuses than the engine applies at once, for messages another app sent from the
    // same WhatsApp number: each waits for a send's answer that never comes.
    const foreign: string[] = [];
    for (let i = 0; i < 250; i += 1) {
      foreign.push(await postStatus(`wamid.aplikasi-lain-${i}`, '6281299990000'));
    }
    const created = await f.blast([numberEnding(9700, '0101'), numberEnding(9700, '0102')]);
    // Their statuses are applied as they come, not a minute later.
    const read = await f.until(
      created.id,
      (b) => b.numbers.every((n: any) => n.delivery.state === 'read'),
      10_000,
    );
    for (const n of read.numbers) expect(n.delivery.delivered_at).not.toBeNull();
    const waiting = await f.server.database.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('body', 'in', foreign)
      .where('processed_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBe(foreign.length);
  });
});

describe('a status whose time or error code Sebar cannot keep', () => {
  it('is applied with the time it came and no code, and the statuses behind it too', async () => {
    const created = await f.blast([numberEnding(9800, '0015'), numberEnding(9801, '0015')]);
    const sent = await f.until(created.id, (b) =>
      b.numbers.every((n: any) => n.delivery.state === 'sent'),
    );
    await f.whatsapp.settled();
    const [late, broken] = sent.numbers;
    const before = Date.now();
    // A time past the year 9999 (seconds taken for milliseconds twice over) and a code past 32
    // bits: each once stopped every status behind it.
    await f.postStatus({
      id: late.delivery.provider_message_id,
      status: 'delivered',
      timestamp: '99999999999999',
      recipient_id: late.number,
    });
    await f.postStatus({
      id: broken.delivery.provider_message_id,
      status: 'failed',
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: broken.number,
      errors: [{ code: 4294967296, title: 'Unknown error' } as any],
    });
    const done = await f.until(
      created.id,
      (b) => b.numbers[0].delivery.state !== 'sent' && b.numbers[1].delivery.state !== 'sent',
      10_000,
    );
    expect(done.numbers[0].delivery.state).toBe('delivered');
    expect(Date.parse(done.numbers[0].delivery.delivered_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(done.numbers[1].delivery).toMatchObject({ state: 'failed', error_code: null });
    expect(done).toMatchObject({ successful_count: 1, failed_count: 1, refund_points: 1 });
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  });
});
