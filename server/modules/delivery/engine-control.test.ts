// What holds the engine back: the shared send rate, the gap to one recipient, the daily limit of
// unique recipients, a restricted sender (pause), a bad token (stop) and a client's cancel.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOLD_REASONS, strandingMessage } from '#common/blast-rules.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { webhookError } from '#local-apis/cloud-api/errors.ts';
import { messagesWebhook } from '#local-apis/cloud-api/statuses.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { DELIVERED_BY_ENGINE } from '#server/modules/blasts/blast-settlement.service.ts';
import { blastHold } from '#server/modules/delivery/blast-hold.ts';
import {
  numberEnding,
  startDeliveryFixture,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';
import { readUntil } from '#server/test/processes.ts';

const RESTRICTED = numberEnding(7001, '3680');
const BAD_TOKEN = numberEnding(7002, '1900');
const RESTRICTED_FIRST = numberEnding(7003, '3680');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    whatsapp: {
      outcomes: {
        [RESTRICTED]: 'reject:368x1',
        [BAD_TOKEN]: 'reject:190x1',
        [RESTRICTED_FIRST]: 'reject:368x1',
      },
    },
    config: { delivery: { recipientGapMs: 400, pauseMs: 600 } as any },
  });
});
afterAll(() => f?.close());

const engineRow = () =>
  f.server.database.db.selectFrom('delivery_engine').selectAll().executeTakeFirstOrThrow();
const sendsTo = (numbers: string[]) => f.whatsapp.sends.filter((s) => numbers.includes(s.to));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const balance = async () =>
  (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body.points;

describe('pacing', () => {
  it('never sends more than messages_per_second in any second', async () => {
    await f.configure({ messages_per_second: 20 });
    const numbers = Array.from({ length: 60 }, (_, i) => numberEnding(1000 + i, '2000'));
    // How long this process goes without running (its event loop's longest delay).
    const frozen = monitorEventLoopDelay({ resolution: 10 });
    frozen.enable();
    const created = await f.blast(numbers);
    await f.until(created.id, (b) => b.status === 'completed', 30_000);
    frozen.disable();
    const arrived = sendsTo(numbers)
      .map((s) => s.at)
      .sort((a, b) => a - b);
    expect(arrived).toHaveLength(60);
    // The engine posts each number at its own slot, 50 ms apart, and never 21 in a second of its
    // clock. The local API, in this process, stamps a post when it reads it: 100 ms of network
    // and scheduling late at most, or as late as this process was frozen (a starved CPU), after
    // which it reads what was posted before with what is posted then. So any 21 sends span a
    // second less that, and all 60 their slots' 2.95 s less that.
    const bunching = 100 + frozen.max / 1e6;
    for (const [i, at] of arrived.entries()) {
      if (i >= 20) expect(at - arrived[i - 20]!).toBeGreaterThan(1000 - bunching);
    }
    expect(arrived.at(-1)! - arrived[0]!).toBeGreaterThan(2950 - bunching);
    await f.configure({ messages_per_second: 1000 });
  }, 60_000);

  it('keeps the gap between two sends to the same recipient', async () => {
    const number = numberEnding(1100, '2000');
    const first = await f.blast([number]);
    const second = await f.blast([number]);
    for (const blast of [first, second]) await f.until(blast.id, (b) => b.status === 'completed');
    expect(sendsTo([number])).toHaveLength(2);
    // When each was taken to send (the engine's own clock, not the network's).
    const claims = await f.server.database.db
      .selectFrom('blast_numbers')
      .select('claimed_at')
      .where('blast_id', 'in', [first.id, second.id])
      .execute();
    const [a, b] = claims.map((row) => Date.parse(row.claimed_at!)).sort((x, y) => x - y);
    expect(b! - a!).toBeGreaterThanOrEqual(400);
  });
});

describe('a restricted sender and a bad token', () => {
  it('pauses on 368, says why, and resumes by itself', async () => {
    const others = [numberEnding(7100, '2000'), numberEnding(7101, '2000')];
    const created = await f.blast([RESTRICTED, ...others]);
    await f.until(created.id, (b) => b.numbers[0].delivery.error_code === 368);
    const paused = await engineRow();
    expect(paused).toMatchObject({ state: 'paused', error_code: 368 });
    expect(paused.reason).toBe('Akun pengirim diblokir sementara karena pelanggaran kebijakan');
    const waiting = await f.read(created.id);
    expect(waiting.numbers[0]).toMatchObject({ status: 'pending', delivery: { state: 'queued' } });
    expect(waiting.numbers[0].delivery.reason).toMatch(/dibatasi/);
    // What the client reads while the pause lasts (the pause is short here: asked at its middle).
    const during = Date.parse(paused.resume_at!) - 300;
    const pending = { id: created.id, delivery_mode: 'cloud_api' as const, status: 'pending' };
    expect(await blastHold(f.server.database.db, pending, 1, during)).toEqual({
      held_reason: HOLD_REASONS.senderPaused,
      resumes_at: paused.resume_at,
    });
    const done = await f.until(created.id, (b) => b.status === 'completed');
    expect(done.numbers.map((n: any) => n.status)).toEqual(['success', 'success', 'success']);
    expect(sendsTo([RESTRICTED, ...others])).toHaveLength(3);
    expect((await engineRow()).state).toBe('running');
  });

  it('posts none of the numbers it had claimed once the pause is answered', async () => {
    await f.configure({ messages_per_second: 10 });
    const restricted = RESTRICTED_FIRST;
    const others = Array.from({ length: 5 }, (_, i) => numberEnding(7110 + i, '2000'));
    const created = await f.blast([restricted, ...others]);
    const done = await f.until(created.id, (b) => b.status === 'completed');
    // One claim took 600 ms of slots: the restricted number first, five more 100 ms apart. Its
    // 368 came back at once and paused the engine for 600 ms (this fixture's pause): the five
    // waited for the pause's end instead of going at their slots in the middle of it.
    const refused = f.whatsapp.requests.find(
      (r) => r.path.endsWith('/messages') && (r.body as { to?: string }).to === restricted,
    )!;
    const during = sendsTo(others).filter(
      (s) => s.at > refused.at + 150 && s.at < refused.at + 550,
    );
    expect(during).toEqual([]);
    expect(done.successful_count).toBe(6);
    for (const number of [restricted, ...others]) expect(sendsTo([number]).length).toBeLessThan(3);
    expect(sendsTo(others)).toHaveLength(5);
    await f.configure({ messages_per_second: 1000 });
  });

  it('stops on 190, says why, and sends nothing until the admin resumes', async () => {
    const created = await f.blast([BAD_TOKEN]);
    await f.until(created.id, (b) => b.numbers[0].delivery.error_code === 190);
    const stopped = await engineRow();
    expect(stopped).toMatchObject({ state: 'stopped', error_code: 190 });
    expect(stopped.reason).toBe('Access token tidak valid atau sudah kedaluwarsa');
    // A stop does not end by itself.
    await sleep(1000);
    expect((await engineRow()).state).toBe('stopped');
    const other = await f.blast([numberEnding(7200, '2000')]);
    await sleep(300);
    expect(sendsTo([other.numbers[0].number])).toHaveLength(0);
    // The client reads that its blast waits for the admin, with no time.
    expect(await f.read(other.id)).toMatchObject({
      held_reason: HOLD_REASONS.senderStopped,
      resumes_at: null,
    });
    // The admin sees why, and resumes (the 'Lanjutkan Pengiriman' button).
    const queue = await f.server.api('GET', '/api/admin/delivery/queue', {
      token: f.server.adminToken,
    });
    expect(queue.body.engine).toMatchObject({
      state: 'stopped',
      error_code: 190,
      reason: 'Access token tidak valid atau sudah kedaluwarsa',
    });
    const resumed = await f.server.api('POST', '/api/admin/delivery/resume', {
      token: f.server.adminToken,
    });
    expect(resumed.status).toBe(200);
    for (const blast of [created, other]) await f.until(blast.id, (b) => b.status === 'completed');
    expect(sendsTo([BAD_TOKEN])).toHaveLength(1);
  });
});

describe('an error Meta reports by webhook for the account, not for a message', () => {
  const accountError = (code: number, phoneNumberId = f.whatsapp.options.phoneNumberId) =>
    messagesWebhook({ ...f.whatsapp.options, phoneNumberId }, { errors: [webhookError(code)] });
  const unapplied = async () =>
    (
      await f.server.database.db
        .selectFrom('webhook_events')
        .select('id')
        .where('processed_at', 'is', null)
        .execute()
    ).length;

  it('stops the engine as a send meeting it would, and not for another phone number', async () => {
    const before = await f.blast([numberEnding(7249, '2000')]);
    await f.until(before.id, (b) => b.status === 'completed');
    // Another phone number of the business account is locked, and Sebar's hits a rate limit:
    // neither halts Sebar's sends.
    await f.postWebhook(accountError(131031, '999888777666555'));
    await f.postWebhook(accountError(130429));
    await readUntil(unapplied, (n) => n === 0, 10_000, 'the events applied');
    expect((await engineRow()).state).toBe('running');

    await f.postWebhook(accountError(131031));
    const stopped = await readUntil(engineRow, (e) => e.state === 'stopped', 10_000, 'the stop');
    expect(stopped).toMatchObject({
      error_code: 131031,
      reason: 'Akun WhatsApp Business dikunci Meta',
    });
    const waiting = await f.blast([numberEnding(7250, '2000')]);
    await sleep(300);
    expect(sendsTo([waiting.numbers[0].number])).toHaveLength(0);
    const resumed = await f.server.api('POST', '/api/admin/delivery/resume', {
      token: f.server.adminToken,
    });
    expect(resumed.status).toBe(200);
    await f.until(waiting.id, (b) => b.status === 'completed');
    expect(sendsTo([waiting.numbers[0].number])).toHaveLength(1);
  });

  it('logs each error reported for Sebar’s phone number, halting or not', async () => {
    const warn = vi.spyOn(f.server.app.log, 'warn');
    try {
      await f.postWebhook(accountError(131000, '999888777666555'));
      await f.postWebhook(accountError(131000));
      await readUntil(unapplied, (n) => n === 0, 10_000, 'the events applied');
      const logged = warn.mock.calls.filter(
        ([, message]) => message === 'Meta reported account errors',
      );
      expect(logged).toEqual([
        [
          { errors: [{ code: 131000, title: webhookError(131000).title }] },
          'Meta reported account errors',
        ],
      ]);
      expect((await engineRow()).state).toBe('running');
      // The admin sees it on 'Pengiriman' too.
      const queue = await f.server.api('GET', '/api/admin/delivery/queue', {
        token: f.server.adminToken,
      });
      expect(queue.body.engine).toMatchObject({
        state: 'running',
        warning: {
          code: 131000,
          meaning: errorMeaning(131000).meaning,
          title: webhookError(131000).title,
        },
      });
    } finally {
      warn.mockRestore();
    }
  });
});

describe('a cancel in the middle of sending', () => {
  it('refunds the numbers not sent and sends none after the cancel is answered', async () => {
    await f.configure({ messages_per_second: 5 });
    const numbers = Array.from({ length: 30 }, (_, i) => numberEnding(8000 + i, '2000'));
    const before = await balance();
    const created = await f.blast(numbers);
    await f.until(created.id, (b) => b.successful_count >= 3, 10_000);
    const cancelled = await f.server.api(
      'POST',
      `/api/client/blast-requests/${created.id}/cancel`,
      { token: f.client.token },
    );
    const answeredAt = Date.now();
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await sleep(1500);
    const late = sendsTo(numbers).filter((s) => s.at > answeredAt);
    expect(late).toEqual([]);
    const done = await f.until(created.id, (b) =>
      b.numbers.every((n: any) => n.status !== 'pending'),
    );
    const sent = sendsTo(numbers).length;
    expect(done.successful_count).toBe(sent);
    expect(done.failed_count).toBe(30 - sent);
    expect(done.refund_points).toBe(30 - sent);
    const unsent = done.numbers.find((n: any) => n.status === 'failed');
    expect(unsent.delivery.reason).toBe('Blast dibatalkan sebelum nomor ini dikirim');
    expect(await balance()).toBe(before - sent);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
    await f.configure({ messages_per_second: 1000 });
  }, 30_000);
});

describe('the daily limit of unique recipients', () => {
  it('sends to no more new recipients than the limit; the rest wait', async () => {
    const fresh = await startDeliveryFixture({ cloud: { daily_recipient_limit: 3 } });
    try {
      const numbers = Array.from({ length: 5 }, (_, i) => numberEnding(6000 + i, '2000'));
      const created = await fresh.blast(numbers);
      await fresh.until(created.id, (b) => b.successful_count === 3);
      await sleep(800);
      const blast = await fresh.read(created.id);
      expect(blast.successful_count).toBe(3);
      expect(blast.numbers.filter((n: any) => n.delivery.state === 'queued')).toHaveLength(2);
      expect(fresh.whatsapp.sends).toHaveLength(3);
      // Why, to the client: until the first of today's recipients leaves the 24 hours (the
      // numbers refused are due again in an hour, before that).
      const first = await fresh.server.database.db
        .selectFrom('delivery_recipients')
        .select((eb) => eb.fn.min('last_sent_at').as('at'))
        .executeTakeFirstOrThrow();
      expect(blast).toMatchObject({
        held_reason: HOLD_REASONS.recipientLimit,
        resumes_at: new Date(Date.parse(String(first.at)) + 24 * 3600_000).toISOString(),
      });
      // Asked 23 hours and a half later, the refused numbers due again an hour after that, past
      // the first recipient's 24 hours: their time.
      const later = Date.now() + 23.5 * 3600_000;
      await fresh.server.database.db
        .updateTable('blast_numbers')
        .set({ next_attempt_at: new Date(later + 3600_000).toISOString() })
        .where('blast_id', '=', created.id)
        .where('state', '=', 'queued')
        .execute();
      expect(
        await blastHold(fresh.server.database.db, { ...blast, status: 'pending' }, 2, later),
      ).toEqual({
        held_reason: HOLD_REASONS.recipientLimit,
        resumes_at: new Date(later + 3600_000).toISOString(),
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('a client deleted while its blast is being sent', () => {
  it('stops its sends and leaves the other blasts to finish', async () => {
    await f.configure({ messages_per_second: 10 });
    const gone = await f.server.createClient();
    await f.server.api('PUT', `/api/admin/users/${gone.user.id}`, {
      token: f.server.adminToken,
      body: { username: gone.user.username, email: gone.user.email, points: 100, is_active: true },
    });
    const numbers = Array.from({ length: 20 }, (_, i) => numberEnding(5000 + i, '2000'));
    const theirs = await f.server.api('POST', '/api/client/blast-requests', {
      token: gone.token,
      body: { target_numbers: numbers, template_id: '1029384756000002', parameters: ['Rp1'] },
    });
    expect(theirs.status).toBe(201);
    const mine = await f.blast([numberEnding(5100, '2000'), numberEnding(5101, '2000')]);
    await sleep(400);
    const deleted = await f.server.api('DELETE', `/api/admin/users/${gone.user.id}`, {
      token: f.server.adminToken,
    });
    expect(deleted.status).toBeLessThan(300);
    await f.until(mine.id, (b) => b.status === 'completed');
    const sentBefore = sendsTo(numbers).length;
    await sleep(800);
    expect(sendsTo(numbers).length).toBe(sentBefore);
    expect(sentBefore).toBeLessThan(20);
    expect(await checkLedger(f.server.database.db)).toEqual([]);
    await f.configure({ messages_per_second: 1000 });
  });
});

describe('a blast the engine delivers', () => {
  it('takes no typed results, and is still sent after a switch to manual mode', async () => {
    await f.configure({ messages_per_second: 5 });
    const numbers = Array.from({ length: 6 }, (_, i) => numberEnding(5200 + i, '2000'));
    const created = await f.blast(numbers);
    const admin = f.server.adminToken;
    const typed = await f.server.api('POST', `/api/admin/blast-requests/${created.id}/result`, {
      token: admin,
      body: { successful_count: 6, failed_count: 0, no_wa_count: 0 },
    });
    expect(typed.status).toBe(409);
    expect(typed.body.detail).toBe(DELIVERED_BY_ENGINE);
    const statuses = await f.server.api(
      'POST',
      `/api/admin/blast-requests/${created.id}/number-statuses`,
      { token: admin, body: { number_statuses: { 0: 'failed' } } },
    );
    expect(statuses.status).toBe(409);
    // The admin goes back to manual mode while the blast is being sent.
    const manual = await f.server.api('PUT', '/api/admin/delivery', {
      token: admin,
      body: {
        mode: 'manual',
        cloud_api: {
          graph_url: f.whatsapp.url,
          phone_number_id: f.whatsapp.options.phoneNumberId,
          business_account_id: f.whatsapp.options.businessAccountId,
          messages_per_second: 5,
        },
      },
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(200);
    const done = await f.until(created.id, (b) => b.status === 'completed', 15_000);
    expect(done).toMatchObject({ delivery_mode: 'cloud_api', successful_count: 6 });
    expect(sendsTo(numbers)).toHaveLength(6);
    await f.configure({ messages_per_second: 1000 });
  });
});

describe('emptying the settings a blast is sent with', () => {
  it('is refused while its numbers are still to be sent, and allowed once it ends', async () => {
    await f.configure({ messages_per_second: 1 });
    const numbers = Array.from({ length: 10 }, (_, i) => numberEnding(5300 + i, '2000'));
    const created = await f.blast(numbers);
    const admin = f.server.adminToken;
    const empty = () =>
      f.server.api('PUT', '/api/admin/delivery', {
        token: admin,
        body: {
          mode: 'manual',
          cloud_api: { graph_url: f.whatsapp.url, phone_number_id: '', business_account_id: '' },
        },
      });
    const settings = () => f.server.api('GET', '/api/admin/delivery', { token: admin });
    const before = (await settings()).body;
    const refused = await empty();
    expect(refused.status).toBe(409);
    const unsent = Number(/^(\d+) nomor/.exec(refused.body.detail)?.[1]);
    expect(unsent).toBeGreaterThan(0);
    expect(refused.body.detail).toBe(strandingMessage('cloud_api', unsent));
    expect((await settings()).body).toEqual(before);

    // Cancelled, the blast has nothing left to send (its points come back): the save goes through.
    const cancelled = await f.server.api(
      'POST',
      `/api/client/blast-requests/${created.id}/cancel`,
      { token: f.client.token },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await f.until(created.id, (b) => b.status === 'cancelled' || b.status === 'completed');
    const saved = await empty();
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ mode: 'manual', cloud_api: { phone_number_id: '' } });
    await f.configure({ messages_per_second: 1000 });
  });
});
