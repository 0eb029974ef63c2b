// The delivery queue over HTTP: off in manual mode; in Cloud API mode what waits, what is on its
// way, today's sends and failures by code (the Asia/Jakarta day), the last minute's rate and the
// last 24 hours' recipients; the engine's pause as stored, and the admin's audited resume. The
// engine is not built yet: its progress is written into the rows directly. In gateway mode the
// devices' pacing, takes and sending hours stand in for the rate.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jakartaDayRange } from '#common/dashboard.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import type { BlastNumbersTable, DeliveryEngineTable } from '#server/db/schema.ts';
import { transact } from '#server/db/transaction.ts';
import { closedBeforeSending } from '#common/blast-rules.ts';
import { settleDelivery } from '#server/modules/blasts/blast-settlement.service.ts';
import { startGatewayFixture, type GatewayFixture } from '#server/test/gateway-fixture.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';
import { readQueue } from './queue.service.ts';

let server: TestServer;
let double: LocalCloudApi;
let admin = '';
let client = '';
let blastId = '';
beforeAll(async () => {
  // No worker: the tests write what the engine would have done.
  server = await startServer({ secretKey: 'queue-test-key-0123456789', deliveryWorker: false });
  admin = server.adminToken;
  const created = await server.createClient();
  client = created.token;
  const { username, email } = created.user;
  await server.api('PUT', `/api/admin/users/${created.user.id}`, {
    token: admin,
    body: { username, email, points: 100, is_active: true },
  });
  double = await startLocalCloudApi({ templates: structuredClone(DEFAULT_TEMPLATES) });
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});

const queue = (token = admin) => server.api('GET', '/api/admin/delivery/queue', { token });
const resume = (token = admin) => server.api('POST', '/api/admin/delivery/resume', { token });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Cloud API mode against the local double, one template enabled, a blast of `count` numbers. */
async function cloudApiBlast(count: number) {
  const settings = await server.api('PUT', '/api/admin/delivery', {
    token: admin,
    body: {
      mode: 'cloud_api',
      cloud_api: {
        ...cloudApiSettingsOf(double),
        messages_per_second: 40,
        daily_recipient_limit: 1000,
      },
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  expect(
    (await server.api('POST', '/api/admin/delivery/templates/sync', { token: admin })).status,
  ).toBe(200);
  const template = DEFAULT_TEMPLATES.find((t) => t.name === 'pengingat_tagihan')!;
  await server.api('PUT', `/api/admin/delivery/templates/${template.id}`, {
    token: admin,
    body: { enabled: true },
  });
  const blast = await server.api('POST', '/api/client/blast-requests', {
    token: client,
    body: {
      template_id: template.id,
      parameters: ['Rp150.000'],
      target_numbers: Array.from(
        { length: count },
        (_, i) => `08120000${String(i).padStart(4, '0')}`,
      ),
      image_url: null,
    },
  });
  expect(blast.status, JSON.stringify(blast.body)).toBe(201);
  return blast.body.id as string;
}

/** What the engine would have written to number `idx`. */
function setNumber(idx: number, values: Partial<BlastNumbersTable>) {
  return server.database.db
    .updateTable('blast_numbers')
    .set(values)
    .where('blast_id', '=', blastId)
    .where('idx', '=', idx)
    .execute();
}

async function setEngine(values: Partial<DeliveryEngineTable>) {
  const row = {
    state: 'running' as const,
    since: ago(HOUR),
    next_slot_at: ago(0),
    ...values,
  };
  await server.database.db
    .insertInto('delivery_engine')
    .values({ id: 1, reason: null, error_code: null, resume_at: null, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet({ reason: null, resume_at: null, ...row }))
    .execute();
}

const auditOf = (action: string) =>
  server.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('created_at')
    .execute();

describe('delivery queue', () => {
  it('is off in manual mode, with nothing waiting', async () => {
    const answer = await queue();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      mode: 'manual',
      engine: {
        state: 'off',
        reason: null,
        error_code: null,
        since: null,
        resume_at: null,
        warning: null,
      },
      waiting: 0,
      sending: 0,
      sent_today: 0,
      failed_today: 0,
      failures_today: [],
      rate: { limit: 20, last_minute: 0 },
      daily: { limit: null, used: 0 },
    });
  });

  it('is the admin’s alone', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const call of [queue, resume]) {
        expectCleanError(await call(client), 403);
        expectCleanError(await call(''), 401);
      }
    });
  });

  it('counts a new Cloud API blast’s numbers as waiting, the engine running', async () => {
    blastId = await cloudApiBlast(10);
    const answer = await queue();
    expect(answer.body).toMatchObject({
      mode: 'cloud_api',
      engine: { state: 'running', reason: null, since: null, resume_at: null },
      waiting: 10,
      sending: 0,
      rate: { limit: 40, last_minute: 0 },
      daily: { limit: 1000, used: 0 },
    });
  });

  it('adds up what the engine did: waiting, sending, today’s sends and failures by code', async () => {
    const { start } = jakartaDayRange(new Date());
    const today = new Date(Math.max(Date.parse(start), Date.now() - HOUR)).toISOString();
    const yesterday = new Date(Date.parse(start) - 1).toISOString();
    // 0 waits untouched; 1 waits for a retry after a transient error.
    await setNumber(1, { attempts: 1, error_code: 131000, next_attempt_at: ago(-MINUTE) });
    await setNumber(2, { state: 'sending', attempts: 1, claimed_at: ago(10_000) });
    await setNumber(3, {
      state: 'sent',
      status: 'success',
      sent_at: today,
      claimed_at: ago(20_000),
    });
    await setNumber(4, {
      state: 'delivered',
      status: 'success',
      sent_at: today,
      delivered_at: today,
      claimed_at: ago(2 * MINUTE),
    });
    await setNumber(5, { state: 'failed', status: 'no_wa', error_code: 131026, failed_at: today });
    // Accepted by Meta, then reported undeliverable by webhook: a failure, not a send.
    await setNumber(6, {
      state: 'failed',
      status: 'no_wa',
      error_code: 131026,
      sent_at: today,
      failed_at: today,
    });
    await setNumber(7, {
      state: 'failed',
      status: 'failed',
      error_title: 'Status pengiriman tidak diketahui',
      failed_at: today,
    });
    // Yesterday's (Asia/Jakarta) are not today's.
    await setNumber(8, {
      state: 'failed',
      status: 'failed',
      error_code: 131049,
      failed_at: yesterday,
    });
    await setNumber(9, { state: 'sent', status: 'success', sent_at: yesterday });
    // As the engine will: the blast's counts follow its numbers.
    await transact(server.database, (tx) => settleDelivery(tx, blastId));
    await server.database.db
      .insertInto('delivery_recipients')
      .values([
        { number: '6281200000003', last_sent_at: ago(HOUR) },
        { number: '6281200000004', last_sent_at: ago(5 * HOUR) },
        { number: '6281200000009', last_sent_at: ago(25 * HOUR) },
      ])
      .execute();

    const answer = await queue();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      mode: 'cloud_api',
      engine: {
        state: 'running',
        reason: null,
        error_code: null,
        since: null,
        resume_at: null,
        warning: null,
      },
      waiting: 2,
      sending: 1,
      sent_today: 2,
      failed_today: 3,
      failures_today: [
        { code: 131026, meaning: errorMeaning(131026).meaning, count: 2 },
        { code: null, meaning: 'Status pengiriman tidak diketahui', count: 1 },
      ],
      // Two claims in the last 60 seconds.
      rate: { limit: 40, last_minute: 0.03 },
      daily: { limit: 1000, used: 2 },
    });
  });

  it('takes today as the Asia/Jakarta day', async () => {
    // 00:30 in Jakarta on 11 March 2025 is 17:30 UTC on the 10th.
    const at = new Date('2025-03-10T17:30:00.000Z');
    await setNumber(3, { sent_at: '2025-03-10T16:59:59.999Z' });
    await setNumber(4, { sent_at: '2025-03-10T17:00:00.000Z' });
    await setNumber(5, { failed_at: '2025-03-11T16:59:59.999Z' });
    await setNumber(6, { failed_at: '2025-03-11T17:00:00.000Z' });
    // Withdrawn unsent by a cancel: refunded, but no failure of delivery.
    await setNumber(8, {
      error_code: null,
      error_title: closedBeforeSending('cancelled'),
      failed_at: '2025-03-11T10:00:00.000Z',
    });
    const figures = await readQueue(server.database.db, at);
    expect([figures.sent_today, figures.failed_today]).toEqual([1, 1]);
    expect(figures.failures_today).toEqual([
      { code: 131026, meaning: errorMeaning(131026).meaning, count: 1 },
    ]);
  });

  it('shows a pause as the engine stored it, and one past its end as running', async () => {
    const reason = 'Batas spam tercapai: pengiriman dari nomor ini dibatasi';
    const since = ago(10 * MINUTE);
    await setEngine({ state: 'paused', reason, error_code: 131048, since });
    expect((await queue()).body.engine).toEqual({
      state: 'paused',
      reason,
      error_code: 131048,
      since,
      resume_at: null,
      warning: null,
    });
    const later = ago(-HOUR);
    await setEngine({ state: 'paused', reason, error_code: 131048, since, resume_at: later });
    expect((await queue()).body.engine).toMatchObject({ state: 'paused', resume_at: later });
    const ended = ago(MINUTE);
    await setEngine({ state: 'paused', reason, error_code: 131048, since, resume_at: ended });
    expect((await queue()).body.engine).toEqual({
      state: 'running',
      reason: null,
      error_code: null,
      since: ended,
      resume_at: null,
      warning: null,
    });
  });

  it('shows the last error Meta reported for the phone number for a day', async () => {
    const title = 'Service unavailable';
    const at = ago(23 * HOUR);
    await setEngine({ warning_code: 131016, warning_title: title, warning_at: at });
    expect((await queue()).body.engine).toMatchObject({
      state: 'running',
      warning: { code: 131016, meaning: errorMeaning(131016).meaning, title, at },
    });
    await setEngine({ warning_at: ago(25 * HOUR) });
    expect((await queue()).body.engine.warning).toBeNull();
    await setEngine({ warning_code: null, warning_title: null, warning_at: null });
  });

  it('resumes a paused engine for the admin, audited, and a second resume records nothing', async () => {
    const reason = 'Akun pengirim diblokir sementara karena pelanggaran kebijakan';
    await setEngine({ state: 'paused', reason, error_code: 368, resume_at: ago(-HOUR) });
    const before = Date.now();
    const answer = await resume();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.engine).toMatchObject({
      state: 'running',
      reason: null,
      error_code: null,
      resume_at: null,
    });
    expect(Date.parse(answer.body.engine.since)).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.body.waiting).toBe(2);
    const row = await server.database.db
      .selectFrom('delivery_engine')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      state: 'running',
      reason: null,
      error_code: null,
      resume_at: null,
    });
    const audits = await auditOf('delivery.resume');
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.before_json!)).toMatchObject({
      state: 'paused',
      reason,
      error_code: 368,
    });
    expect(JSON.parse(audits[0]!.after_json!)).toMatchObject({ state: 'running' });

    await expectUnchanged(server.database.db, async () => {
      expect((await resume()).status).toBe(200);
    });
  });

  it('resumes a stopped engine too', async () => {
    await setEngine({
      state: 'stopped',
      reason: 'Access token tidak valid atau sudah kedaluwarsa',
      error_code: 190,
    });
    expect((await queue()).body.engine.state).toBe('stopped');
    expect((await resume()).body.engine.state).toBe('running');
    expect(await auditOf('delivery.resume')).toHaveLength(2);
  });
});

describe('delivery queue in gateway mode', () => {
  let gateway: GatewayFixture;
  beforeAll(async () => {
    // No worker here either: the devices' takes are written into the rows.
    gateway = await startGatewayFixture({ config: { deliveryWorker: false } });
    await gateway.addDevice('hp-satu', '6281100000001');
    await gateway.addDevice('hp-dua', '6281100000002');
    await gateway.addDevice('hp-tiga', '6281100000003');
    await gateway.configure({
      min_delay_seconds: 8,
      max_delay_seconds: 20,
      daily_limit_per_device: 300,
      sending_hours: '08:00-20:00',
    });
  });
  afterAll(() => gateway?.close());

  it('shows the devices’ pacing, today’s takes against their limits and the hours', async () => {
    const { db } = gateway.server.database;
    const blast = await gateway.blast(['081200000001', '081200000002', '081200000003']);
    // One device held for the admin: it takes nothing, its limit does not count.
    await db
      .updateTable('gateway_devices')
      .set({ pause_reason: 'WhatsApp membatasi perangkat ini (kode 463)', error_code: 463 })
      .where('session', '=', 'hp-tiga')
      .execute();
    const taken = (idx: number, device: string, state: 'sending' | 'sent') =>
      db
        .updateTable('blast_numbers')
        .set({ state, device, claimed_at: new Date().toISOString() })
        .where('blast_id', '=', blast.id)
        .where('idx', '=', idx)
        .execute();
    await taken(0, 'hp-satu', 'sent');
    await taken(1, 'hp-dua', 'sending');

    const answer = await gateway.server.api('GET', '/api/admin/delivery/queue', {
      token: gateway.server.adminToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ mode: 'gateway', waiting: 1, sending: 1 });
    expect(answer.body.gateway).toMatchObject({
      devices: 2,
      min_delay_seconds: 8,
      max_delay_seconds: 20,
      sent_today: 2,
      daily_limit: 600,
      sending_hours: '08:00-20:00',
    });
    // Each device's card counts what its own limit counts: a number being sent has its place.
    const devices = await gateway.server.api('GET', '/api/admin/delivery/devices', {
      token: gateway.server.adminToken,
    });
    const takenBy = Object.fromEntries(
      (devices.body.items as { session: string; sent_today: number }[]).map((d) => [
        d.session,
        d.sent_today,
      ]),
    );
    expect(takenBy).toMatchObject({ 'hp-satu': 1, 'hp-dua': 1, 'hp-tiga': 0 });

    // hp-satu is held too: only hp-dua's take counts, against hp-dua's limit alone.
    const hold = (session: string, reason: string | null) =>
      db
        .updateTable('gateway_devices')
        .set({ pause_reason: reason })
        .where('session', '=', session);
    await hold('hp-satu', 'Perangkat tidak terhubung ke WhatsApp').execute();
    expect((await readQueue(db)).gateway).toMatchObject({
      devices: 1,
      sent_today: 1,
      daily_limit: 300,
    });
    await hold('hp-satu', null).execute();

    // 21:00 WIB: closed, opening at 08:00 WIB the next morning (01:00 UTC).
    const evening = await readQueue(db, new Date('2026-03-10T14:00:00Z'));
    expect(evening.gateway).toMatchObject({ open: false, opens_at: '2026-03-11T01:00:00.000Z' });
    const morning = await readQueue(db, new Date('2026-03-10T03:00:00Z'));
    expect(morning.gateway).toMatchObject({ open: true, opens_at: null });
  });

  it('does not show the Cloud API’s pause as its own, unless Cloud API numbers wait too', async () => {
    const { db } = gateway.server.database;
    // Left from the Cloud API mode: the engine paused by Meta.
    const paused = {
      id: 1,
      state: 'paused' as const,
      reason: 'Batas spam tercapai: pengiriman dari nomor ini dibatasi',
      error_code: 131048,
      since: new Date().toISOString(),
      resume_at: null,
      next_slot_at: new Date().toISOString(),
    };
    await db
      .insertInto('delivery_engine')
      .values(paused)
      .onConflict((oc) => oc.column('id').doUpdateSet(paused))
      .execute();
    await gateway.blast(['081200000011']);
    expect((await readQueue(db)).engine).toMatchObject({ state: 'running', reason: null });
    // A Cloud API blast still being sent after the switch: its pause holds it back, and is shown.
    await db
      .updateTable('blasts')
      .set({ delivery_mode: 'cloud_api' })
      .where('id', '=', (await gateway.blast(['081200000012'])).id)
      .execute();
    expect((await readQueue(db)).engine).toMatchObject({ state: 'paused', error_code: 131048 });
  });
});
