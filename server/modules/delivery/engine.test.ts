// The delivery engine against the local Cloud API: a whole blast sent, every number's fate and
// reason, refunds through the ledger exactly once, and each number sent exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeBySuffix } from '#local-apis/cloud-api/outcomes.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({ whatsapp: { outcomes: outcomeBySuffix } });
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
      60_000,
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
    // The refund is one ledger entry, and the ledger checks clean.
    const refunds = (await history()).items.filter((t: any) => t.type === 'refund');
    expect(refunds.map((t: any) => [t.delta, t.description])).toEqual([
      [20, 'Refund blast: 10 gagal, 10 tanpa WhatsApp'],
    ]);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
  });
});
