// Opt-out by message, end to end on the Cloud API channel: the local Cloud API posts a user's
// message to Sebar's webhook, signed as Meta signs it; the worker applies it and a keyword puts the
// sender on the list exactly once, however often it comes. A later blast leaves the number out
// before it is charged, and nothing is ever sent to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '#common/delivery.ts';
import type { IncomingContent } from '#local-apis/cloud-api/server.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { startDeliveryFixture, type DeliveryFixture } from '#server/test/delivery-fixture.ts';

let f: DeliveryFixture;

beforeAll(async () => {
  f = await startDeliveryFixture({ points: 100 });
});
afterAll(() => f?.close());

const db = () => f.server.database.db;

/** The user at `from` writes to the business; resolves once Sebar has applied every webhook. */
async function says(from: string, content: IncomingContent) {
  f.whatsapp.receive(from, content);
  await applied();
}

async function applied() {
  await f.whatsapp.settled();
  const unapplied = async () =>
    Number(
      (
        await db()
          .selectFrom('webhook_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('processed_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  await expect.poll(unapplied, { timeout: 10_000 }).toBe(0);
}

const listed = (number: string) =>
  db().selectFrom('opt_outs').selectAll().where('number', '=', number).execute();

describe('a keyword message to the business', () => {
  it('puts its sender on the list once, however often it comes', async () => {
    const from = '6281234500001';
    await says(from, { text: 'STOP' });
    // Meta retries a delivery with the same bytes; the user may also say it again.
    const first = f.whatsapp.webhooks.find((hook) => hook.body.includes(from))!;
    const again = await f.server.api('POST', WEBHOOK_PATH, {
      raw: first.body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': first.signature },
    });
    expect(again.status).toBe(200);
    await says(from, { text: 'stop' });
    const rows = await listed(from);
    expect(rows).toEqual([
      {
        number: from,
        source: 'whatsapp',
        keyword: 'STOP',
        channel: 'cloud_api',
        created_at: expect.any(String),
        created_by: null,
      },
    ]);
  });

  it('takes each keyword in any letter case, with punctuation around it, and reply buttons', async () => {
    const said: [string, IncomingContent, string][] = [
      ['6281234500002', { text: 'berhenti' }, 'berhenti'],
      ['6281234500003', { text: '  Unsub!  ' }, 'Unsub!'],
      ['6281234500004', { button: { text: 'Stop' } }, 'Stop'],
      ['6281234500005', { buttonReply: { id: 'optout', title: 'BERHENTI' } }, 'BERHENTI'],
      // Kept printable: a NUL would stop PostgreSQL, and every event after it.
      ['6281234500010', { text: '\u0000stop\u0007' }, 'stop'],
    ];
    for (const [from, content] of said) f.whatsapp.receive(from, content);
    await applied();
    for (const [from, , keyword] of said) {
      expect(
        (await listed(from)).map((row) => row.keyword),
        from,
      ).toEqual([keyword]);
    }
  });

  it('ignores an ordinary message, a keyword inside a sentence, and numbers no blast can hold', async () => {
    const said: [string, IncomingContent][] = [
      ['6281234500006', { text: 'Halo, promo masih ada?' }],
      ['6281234500007', { text: 'stop please' }],
      ['6281234500008', { text: 'jangan berhenti kirim' }],
      ['6281234500009', { button: { text: 'Lihat Promo', payload: 'PROMO' } }],
      // A sender outside Indonesia: never on a blast, so never on the list.
      ['14155550123', { text: 'STOP' }],
    ];
    for (const [from, content] of said) f.whatsapp.receive(from, content);
    await applied();
    for (const [from] of said) expect(await listed(from), from).toEqual([]);
  });

  it('shows the admin who asked, newest first', async () => {
    const answer = await f.server.api('GET', '/api/admin/opt-outs?page_size=100', {
      token: f.server.adminToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.summary).toEqual({ total: 6, whatsapp: 6, admin: 0 });
    expect(answer.body.items.map((o: { number: string }) => o.number)).toContain('6281234500001');
  });
});

describe('a Cloud API blast to opted-out numbers', () => {
  it('charges and sends only the rest, and says how many were left out', async () => {
    const before = (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body
      .points as number;
    const blast = await f.blast([
      '081234500001',
      '6281234500002',
      '081234500100',
      '081234500101',
      '+6281234500003',
    ]);
    expect(blast.opted_out_count).toBe(3);
    expect(blast.total_numbers).toBe(2);
    expect(blast.points_used).toBe(2);
    expect(blast.target_numbers).toEqual(['6281234500100', '6281234500101']);
    const done = await f.until(blast.id, (b) => b.status === 'completed');
    expect(done.successful_count).toBe(2);
    await f.whatsapp.settled();
    for (const number of ['6281234500001', '6281234500002', '6281234500003'])
      expect(f.whatsapp.sentTo(number), number).toBe(0);
    const after = (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body
      .points as number;
    expect(before - after).toBe(2);
    expect(await checkLedger(db())).toEqual([]);
  });
});
