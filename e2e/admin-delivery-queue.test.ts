// The delivery queue and a Cloud API blast's numbers in Chromium. The blast is made through the
// API in Cloud API mode against the local Cloud API; the engine is not built yet, so its progress
// is written into the rows directly (and settled as the engine will), and the screens must follow
// it without a reload: the queue card with a paused engine and its resume, the client's and the
// admin's blast detail.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import type { BlastNumbersTable } from '#server/db/schema.ts';
import { transact } from '#server/db/transaction.ts';
import { settleDelivery } from '#server/modules/blasts/blast-settlement.service.ts';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  type Page,
  shot,
  signIn,
  startE2E,
} from './helpers.ts';
import { adminApi, type Client, clientApi, numbers, setPoints } from './seed.ts';

let e2e: E2E;
let double: LocalCloudApi;
let client: Client;
let blastId = '';
const TEMPLATE = DEFAULT_TEMPLATES.find((t) => t.name === 'pengingat_tagihan')!;
const PAUSE_REASON = errorMeaning(131048).meaning;

beforeAll(async () => {
  // No worker: the tests write what the engine would have done, step by step.
  e2e = await startE2E({ deliveryWorker: false });
  double = await startLocalCloudApi({ templates: structuredClone(DEFAULT_TEMPLATES) });
  await adminApi(e2e.server, 'PUT', '/api/admin/delivery', {
    mode: 'cloud_api',
    cloud_api: {
      ...cloudApiSettingsOf(double),
      messages_per_second: 20,
      daily_recipient_limit: 250,
    },
  });
  await adminApi(e2e.server, 'POST', '/api/admin/delivery/templates/sync');
  await adminApi(e2e.server, 'PUT', `/api/admin/delivery/templates/${TEMPLATE.id}`, {
    enabled: true,
  });
  client = await e2e.server.createClient({ username: 'toko-maju' });
  await setPoints(e2e.server, client, 50);
  const blast = await clientApi(e2e.server, client, 'POST', '/api/client/blast-requests', {
    template_id: TEMPLATE.id,
    parameters: ['Rp150.000'],
    target_numbers: numbers(5),
    image_url: null,
  });
  blastId = blast.id;
});
afterAll(async () => {
  await e2e?.close();
  await double?.close();
});

const db = () => e2e.server.database.db;

/** What the engine would write to number `idx`, and the blast settled as the engine will. */
async function deliver(changes: [idx: number, values: Partial<BlastNumbersTable>][]) {
  for (const [idx, values] of changes) {
    await db()
      .updateTable('blast_numbers')
      .set(values)
      .where('blast_id', '=', blastId)
      .where('idx', '=', idx)
      .execute();
  }
  await transact(e2e.server.database, (tx) => settleDelivery(tx, blastId));
}

const at = () => new Date().toISOString();

/** Marks the page, so a later check can tell it was never reloaded. */
const markPage = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marked: boolean }).marked = true));
const stillMarked = (page: Page) =>
  page.evaluate(() => (window as unknown as { marked?: boolean }).marked === true);

const figure = (page: Page, key: string) =>
  page.locator(`[data-queue-figure="${key}"] dd`).textContent();

describe('queue card', () => {
  it('shows a paused engine with its reason and the queue’s figures', async () => {
    await deliver([
      [0, { state: 'sending', attempts: 1, claimed_at: at() }],
      [1, { state: 'failed', status: 'no_wa', attempts: 1, error_code: 131026, failed_at: at() }],
    ]);
    await db()
      .insertInto('delivery_engine')
      .values({
        id: 1,
        state: 'paused',
        reason: PAUSE_REASON,
        error_code: 131048,
        since: at(),
        resume_at: null,
        next_slot_at: at(),
      })
      .execute();

    const page = await adminPage(e2e, '/delivery');
    const card = page.locator('[data-queue-card]');
    await card.locator('[data-engine-state="paused"]').waitFor();
    expect(await card.getByText(`${PAUSE_REASON} (kode 131048).`).count()).toBe(1);
    await card.getByText('Pengiriman menunggu sampai admin melanjutkannya.').waitFor();
    expect(await figure(page, 'waiting')).toBe('3');
    expect(await figure(page, 'sending')).toBe('1');
    expect(await figure(page, 'sent_today')).toBe('0');
    expect(await figure(page, 'failed_today')).toBe('1');
    const failure = card.getByRole('row').filter({ hasText: '131026' });
    expect((await failure.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual([
      '131026',
      errorMeaning(131026).meaning,
      '1',
    ]);
    expect(
      await card.locator('[data-queue-meter="Penerima 24 Jam Terakhir"]').textContent(),
    ).toContain('0 / 250');
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'admin-delivery-queue-paused-desktop');

    const phone = await adminPage(e2e, '/delivery', 'phone');
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.locator('[data-engine-state="paused"]').waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-delivery-queue-paused-390');
    await phone.context().close();

    // The dashboard says so too, with the way to Pengiriman.
    const home = await adminPage(e2e, '/');
    const notice = home.locator('[data-engine-notice]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Pengiriman dijeda');
    expect(await notice.textContent()).toContain(`${PAUSE_REASON}. 3 nomor menunggu dikirim.`);
    await shot(home, 'admin-dashboard-engine-paused');
    await notice.getByRole('link', { name: 'Buka Pengiriman' }).click();
    await home.waitForURL('**/delivery');
    await home.context().close();

    await markPage(page);
    await card.getByRole('button', { name: 'Lanjutkan Pengiriman' }).click();
    await expectToast(page, 'Pengiriman dilanjutkan', { variant: 'success' });
    await card.locator('[data-engine-state="running"]').waitFor();
    expect(await card.getByRole('button', { name: 'Lanjutkan Pengiriman' }).count()).toBe(0);
    const engine = await db().selectFrom('delivery_engine').selectAll().executeTakeFirstOrThrow();
    expect(engine).toMatchObject({ state: 'running', reason: null, error_code: null });
    const audits = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'delivery.resume')
      .execute();
    expect(audits).toHaveLength(1);
    await dismissToasts(page);
    await shot(page, 'admin-delivery-queue-running-desktop');
  });

  it('follows the queue without a reload', async () => {
    const page = await adminPage(e2e, '/delivery');
    await page.locator('[data-engine-state="running"]').waitFor();
    await markPage(page);
    await deliver([[0, { state: 'sent', status: 'success', sent_at: at() }]]);
    await page.locator('[data-queue-figure="sent_today"] dd', { hasText: '1' }).waitFor();
    expect(await figure(page, 'sending')).toBe('0');
    // An error Meta reports for the phone number (a webhook's `value.errors`) appears too.
    await db()
      .updateTable('delivery_engine')
      .set({ warning_code: 131016, warning_title: 'Service unavailable', warning_at: at() })
      .execute();
    const warning = page.locator('[data-engine-warning]');
    await warning.waitFor();
    expect(await warning.textContent()).toContain(`${errorMeaning(131016).meaning} (kode 131016)`);
    expect(await warning.textContent()).toContain('Pesan Meta: Service unavailable');
    expect(await stillMarked(page)).toBe(true);
    await shot(page, 'admin-delivery-queue-warning-desktop');
    await page.context().close();
  });
});

describe('a Cloud API blast’s numbers', () => {
  const row = (page: Page, idx: number) => page.locator(`[data-number-row="${idx}"]`);
  const stateOf = (page: Page, idx: number) =>
    row(page, idx).locator('[data-delivery-state]').textContent();

  it('update on the client’s detail while it is being sent, and stop when it is done', async () => {
    const page = await e2e.open('/login');
    await signIn(page, client.user.email, client.password);
    await page.goto(new URL('/blast-results', page.url()).href);
    await page.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.waitFor();
    await markPage(page);
    expect(await stateOf(page, 0)).toBe('Terkirim');
    // Named as the totals count it: 'No WA', not 'Gagal'.
    expect(await stateOf(page, 1)).toBe('No WA');
    expect(await row(page, 1).locator('[data-delivery-reason]').textContent()).toBe(
      errorMeaning(131026).reason,
    );
    expect(await stateOf(page, 2)).toBe('Antre');

    await deliver([
      [0, { state: 'read', delivered_at: at(), read_at: at() }],
      [
        2,
        { state: 'delivered', status: 'success', attempts: 2, sent_at: at(), delivered_at: at() },
      ],
      [3, { state: 'queued', attempts: 1, error_code: 131000, next_attempt_at: at() }],
    ]);
    await row(page, 2).locator('[data-delivery-state="delivered"]').waitFor();
    expect(await stateOf(page, 0)).toBe('Dibaca');
    expect(await row(page, 2).locator('[data-delivery-facts]').textContent()).toMatch(
      /^\d{1,2} \w{3} \d{4}, \d{2}\.\d{2} · 2 percobaan$/,
    );
    expect(await row(page, 3).locator('[data-delivery-reason]').textContent()).toBe(
      errorMeaning(131000).reason,
    );
    const boxes = await dialog.locator('[data-progress-summary] p.text-xl').allTextContents();
    expect(boxes).toEqual(['2', '0', '1', '2']);
    await dialog.getByText('3 dari 5 nomor selesai diproses (60%)').waitFor();
    expect(await stillMarked(page)).toBe(true);
    await shot(page, 'client-blast-detail-cloud-api-desktop');

    const phone = await e2e.open('/login', 'phone');
    await phone.setViewportSize({ width: 390, height: 844 });
    await signIn(phone, client.user.email, client.password);
    await phone.goto(new URL('/blast-results', phone.url()).href);
    await phone.getByRole('button', { name: /^Detail/ }).click();
    await phone.locator('[data-number-row="3"] [data-delivery-reason]').waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'client-blast-detail-cloud-api-390');
    await phone.context().close();

    // Every number final (read or failed): nothing Meta reports can move any of them any more.
    await deliver([
      [2, { state: 'read', read_at: at() }],
      [
        3,
        {
          state: 'read',
          status: 'success',
          attempts: 2,
          error_code: null,
          sent_at: at(),
          read_at: at(),
        },
      ],
      [4, { state: 'failed', status: 'failed', attempts: 1, error_code: 131049, failed_at: at() }],
    ]);
    await dialog.locator('[data-blast-status="completed"]').waitFor();
    expect(await dialog.locator('[data-progress-summary] p.text-xl').allTextContents()).toEqual([
      '3',
      '1',
      '1',
      '0',
    ]);
    // Done, in the list behind the dialog too: nothing is read again every two seconds any more.
    await page.locator('table [data-blast-status="completed"]').waitFor({ state: 'attached' });
    let reads = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/client/blast-requests')) reads += 1;
    });
    await page.waitForTimeout(4_500);
    expect(reads).toBe(0);
    expect(await stillMarked(page)).toBe(true);
    await page.context().close();
  });

  it('show on the admin’s detail, with no result entry or status editing', async () => {
    const page = await adminPage(e2e, '/blast-results');
    const listRow = page.getByRole('row').filter({ hasText: 'toko-maju' });
    await listRow.waitFor();
    expect(await listRow.getByRole('button', { name: /^Input Hasil/ }).count()).toBe(0);
    expect(await listRow.getByRole('button', { name: /^Edit Hasil/ }).count()).toBe(0);
    await listRow.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog
      .getByText('Hasil tiap nomor dicatat otomatis dari WhatsApp Cloud API, tidak diinput manual.')
      .waitFor();
    await row(page, 4).locator('[data-delivery-reason]').waitFor();
    expect(await stateOf(page, 4)).toBe('Gagal');
    expect(await row(page, 4).locator('[data-delivery-reason]').textContent()).toBe(
      errorMeaning(131049).reason,
    );
    expect(await stateOf(page, 1)).toBe('Tidak ada WA');
    expect(await dialog.getByRole('button', { name: 'Edit Status' }).count()).toBe(0);
    expect(await dialog.locator('[data-summary="success"] dd').textContent()).toBe('3');
    await dialog
      .getByText(`WhatsApp Cloud API · template ${TEMPLATE.name} (${TEMPLATE.language})`)
      .waitFor();
    await shot(page, 'admin-blast-detail-cloud-api-desktop');
    await page.context().close();
  });
});
