// Free-text blasts in gateway mode over HTTP (decision 213): the specification's own body, its
// spintax checked, the raw message stored and every number queued in the debit's transaction;
// refusals change nothing; the engine's blasts take no typed results and a cancel refunds the
// numbers not yet sent. No worker runs here: queued numbers stay queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPINTAX_MESSAGES } from '#common/spintax.ts';
import { now } from '#server/db/connection.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { writeDeliveryMode } from '#server/test/delivery-mode.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import {
  expectCleanError,
  expectIdempotentBlast,
  expectSpecFields,
  expectUnchanged,
} from '#server/test/spec.ts';

let server: TestServer;
let client = { id: '', token: '' };
const START_POINTS = 100;

const admin = (method: string, url: string, body?: unknown) =>
  server.api(method, url, { token: server.adminToken, body });
const send = (body: unknown, headers?: Record<string, string>) =>
  server.api('POST', '/api/client/blast-requests', { token: client.token, body, headers });
const balance = async () =>
  (await server.api('GET', '/api/auth/me', { token: client.token })).body.points as number;
const local = (i: number) => `0813${String(i).padStart(8, '0')}`;
const SPUN = '{Halo|Hai|Selamat pagi} kak, promo khusus untuk {nomor}!';

/** The delivery settings row in `mode`, written directly (the settings screen is another's). */
const setMode = (mode: 'manual' | 'gateway') => writeDeliveryMode(server.database.db, mode);

async function numbersOf(blastId: string) {
  return server.database.db
    .selectFrom('blast_numbers')
    .select(['idx', 'number', 'status', 'state', 'queued_at', 'next_attempt_at'])
    .where('blast_id', '=', blastId)
    .orderBy('idx')
    .execute();
}

beforeAll(async () => {
  server = await startServer({ deliveryWorker: false });
  const created = await server.createClient({ username: 'wulan', email: 'wulan@sebar.test' });
  client = { id: created.user.id, token: created.token };
  const funded = await admin('PUT', `/api/admin/users/${client.id}`, {
    username: 'wulan',
    email: 'wulan@sebar.test',
    points: START_POINTS,
    is_active: true,
  });
  expect(funded.status).toBe(200);
  await setMode('gateway');
});
afterAll(async () => {
  await server?.close();
});

describe('gateway blast creation', () => {
  it('tells clients the gateway mode with the settings they read', async () => {
    const answer = await server.api('GET', '/api/public/settings', { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.delivery_mode).toBe('gateway');
  });

  it('stores the raw message and the mode, queues each number, debits once', async () => {
    const answer = await send({
      message: SPUN,
      target_numbers: [local(1), '+62 813-0000-0002', local(1)],
      image_url: null,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expectSpecFields(answer.body, 'blast');
    expect(answer.body).toMatchObject({
      message: SPUN,
      image_url: null,
      status: 'pending',
      total_numbers: 2,
      points_used: 2,
      delivery_mode: 'gateway',
      template: null,
    });
    expect(answer.body.target_numbers).toEqual(['6281300000001', '6281300000002']);
    for (const number of answer.body.numbers) {
      expect(number.status).toBe('pending');
      expect(number.delivery).toMatchObject({ state: 'queued', attempts: 0, sent_at: null });
      expect(number.delivery.queued_at).toBe(answer.body.created_at);
    }
    const rows = await numbersOf(answer.body.id);
    expect(rows.map((r) => [r.state, r.queued_at, r.next_attempt_at])).toEqual([
      ['queued', answer.body.created_at, answer.body.created_at],
      ['queued', answer.body.created_at, answer.body.created_at],
    ]);
    const stored = await server.database.db
      .selectFrom('blasts')
      .select(['message', 'delivery_mode'])
      .where('id', '=', answer.body.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ message: SPUN, delivery_mode: 'gateway' });
    expect(await balance()).toBe(START_POINTS - 2);
    const usage = await server.database.db
      .selectFrom('point_transactions')
      .select(['type', 'delta'])
      .where('blast_id', '=', answer.body.id)
      .execute();
    expect(usage).toEqual([{ type: 'usage', delta: -2 }]);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('refuses broken spintax, a template or too many characters, saying why, changing nothing', async () => {
    const to = [local(3)];
    await expectUnchanged(server.database.db, async () => {
      for (const [body, detail] of [
        [{ message: 'Halo {kak|', target_numbers: to }, SPINTAX_MESSAGES.unclosed],
        [{ message: 'Halo kak}', target_numbers: to }, SPINTAX_MESSAGES.unopened],
        [{ message: '{Halo|{nomor}}', target_numbers: to }, SPINTAX_MESSAGES.nested],
        [{ message: '{Halo|} kak', target_numbers: to }, SPINTAX_MESSAGES.blankOption('{Halo|}')],
        [
          { message: 'Halo {nama}', target_numbers: to },
          SPINTAX_MESSAGES.unknownVariable('{nama}'),
        ],
        [
          { message: `${'x'.repeat(990)}{nomor}`, target_numbers: to },
          SPINTAX_MESSAGES.tooLong(1005),
        ],
        [{ message: 'x'.repeat(1001), target_numbers: to }, 'Pesan maksimal 1000 karakter'],
        [{ target_numbers: to }, 'Pesan blast tidak boleh kosong'],
        [
          { message: 'Halo', target_numbers: to, template_id: '1', parameters: ['a'] },
          'Template hanya dapat dipakai saat blast dikirim melalui WhatsApp Cloud API',
        ],
        // The message is checked before the numbers, as in manual mode.
        [{ message: '{a|', target_numbers: ['123'] }, SPINTAX_MESSAGES.unclosed],
        [
          { message: 'Halo', target_numbers: ['123'] },
          '1 nomor tidak valid. Mohon perbaiki format nomor',
        ],
      ] as const) {
        const answer = await send(body);
        expectCleanError(answer, 422);
        expect(answer.body.detail, JSON.stringify(body).slice(0, 80)).toBe(detail);
      }
    });
  });

  it('refuses a blast the balance cannot pay, changing nothing', async () => {
    const many = Array.from({ length: START_POINTS }, (_, i) => local(100 + i));
    await expectUnchanged(server.database.db, async () => {
      const answer = await send({ message: 'Halo {nomor}', target_numbers: many });
      expectCleanError(answer, 409);
      expect(answer.body.detail).toContain('Poin Tidak Cukup');
    });
  });

  it('answers a retry with the same Idempotency-Key with the same blast, charged once', async () => {
    const body = { message: '{Halo|Hai} {nomor}', target_numbers: [local(4), local(5)] };
    await expectIdempotentBlast(server.database.db, send, balance, {
      body,
      changed: { ...body, message: '{Halo|Hai} lagi' },
      key: 'gateway-blast-retry-1',
    });
  });
});

describe('a gateway blast is the engine’s', () => {
  it('takes no typed results or statuses from the admin (409), changing nothing', async () => {
    const created = await send({ message: 'Halo {nomor}', target_numbers: [local(6), local(7)] });
    expect(created.status).toBe(201);
    await expectUnchanged(server.database.db, async () => {
      const typed = await admin('POST', `/api/admin/blast-requests/${created.body.id}/result`, {
        successful_count: 2,
        failed_count: 0,
        no_wa_count: 0,
      });
      expectCleanError(typed, 409);
      expect(typed.body.detail).toBe(
        'Hasil blast ini dicatat otomatis dari pengiriman gateway WhatsApp dan tidak diinput manual',
      );
      const statuses = await admin(
        'POST',
        `/api/admin/blast-requests/${created.body.id}/number-statuses`,
        { number_statuses: { 0: 'failed' } },
      );
      expectCleanError(statuses, 409);
    });
  });

  it('a cancel while numbers wait refunds only those not yet sent', async () => {
    const created = await send({
      message: '{Halo|Hai} {nomor}',
      target_numbers: [local(8), local(9), local(10)],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // The engine has sent the first number (as the lead's worker would record it).
    await server.database.db
      .updateTable('blast_numbers')
      .set({ state: 'sent', status: 'success', sent_at: now(), next_attempt_at: null })
      .where('blast_id', '=', id)
      .where('idx', '=', 0)
      .execute();
    await server.database.db
      .updateTable('blasts')
      .set({ successful_count: 1 })
      .where('id', '=', id)
      .execute();
    const before = await balance();
    const cancelled = await server.api('POST', `/api/client/blast-requests/${id}/cancel`, {
      token: client.token,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      successful_count: 1,
      failed_count: 2,
      refund_points: 2,
      delivery_mode: 'gateway',
    });
    expect(
      cancelled.body.numbers.map((n: { delivery: { state: string; reason: string } }) => [
        n.delivery.state,
        n.delivery.reason,
      ]),
    ).toEqual([
      ['sent', null],
      ['failed', 'Blast dibatalkan sebelum nomor ini dikirim'],
      ['failed', 'Blast dibatalkan sebelum nomor ini dikirim'],
    ]);
    expect(await balance()).toBe(before + 2);
    expect((await numbersOf(id)).every((n) => n.next_attempt_at === null)).toBe(true);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });

  it('an admin reject fails the waiting numbers and refunds them', async () => {
    const created = await send({ message: 'Halo', target_numbers: [local(11), local(12)] });
    expect(created.status).toBe(201);
    const before = await balance();
    const rejected = await admin('POST', `/api/admin/blast-requests/${created.body.id}/reject`);
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', failed_count: 2, refund_points: 2 });
    expect(await balance()).toBe(before + 2);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });
});

describe('after a switch back to manual mode', () => {
  it('takes a message with braces as before, delivered by hand', async () => {
    await setMode('manual');
    try {
      const manual = await send({ message: 'Halo {nama}', target_numbers: [local(13)] });
      expect(manual.status, JSON.stringify(manual.body)).toBe(201);
      expect(manual.body).toMatchObject({ message: 'Halo {nama}', delivery_mode: 'manual' });
      expect(manual.body.numbers[0].delivery).toBeNull();
    } finally {
      await setMode('gateway');
    }
    expect(await checkLedger(server.database.db)).toEqual([]);
  });
});
