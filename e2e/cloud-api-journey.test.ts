// Issue 28's browser journey, in Chromium through the real delivery engine and the local Cloud
// API (no step simulated): the admin sets up the Cloud API on 'Pengiriman', tests the connection,
// syncs templates and enables the one with an image header; a client sends a template blast with
// an image to six numbers and watches its detail, without a reload, as the numbers turn Terkirim,
// Diterima, Dibaca, Gagal and No WA with their reasons; the refund of the two failures shows in
// History Poin. The double's own records say the image went up once and every number got one message.
// Then Meta pauses the template: 'Pengiriman' shows it paused and the client is no longer offered
// it, until Meta approves it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '#common/delivery.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import { ENGINE_DEFAULTS } from '#server/modules/delivery/engine-options.ts';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectShellBalance,
  expectToast,
  type Page,
  patientPolls,
  shot,
  signIn,
  startE2E,
} from './helpers.ts';
import {
  expectCompleted,
  expectFinalStates,
  expectStatesMovedForward,
  ledgerEntries,
  openLiveDetail,
} from './live-detail.ts';
import { balanceOf, type Client, clientApi, pngBytes, saveSettings, setPoints } from './seed.ts';

/** The blast's six numbers as the client types them, and what the double does with each. */
const NUMBERS = {
  noWa: '081277770001',
  held: '081277770002',
  delivered: '081277770014',
  readA: '081277770021',
  readB: '081277770022',
  readC: '081277770023',
} as const;
const wa = (local: string) => `62${local.slice(1)}`;
const OUTCOMES = {
  [wa(NUMBERS.noWa)]: 'undeliverable',
  [wa(NUMBERS.held)]: 'failed:131049',
  [wa(NUMBERS.delivered)]: 'delivered',
};
const ALL = Object.values(NUMBERS);
const START_POINTS = 20;
/** Slow enough to watch: two sends a second, statuses 800 ms apart (sent, delivered, read). */
const MESSAGES_PER_SECOND = 2;
const STATUS_DELAY_MS = 800;
const PROMO = DEFAULT_TEMPLATES.find((t) => t.name === 'promo_bulanan')!;
const PROMO_TEXT = 'Halo Sari, nikmati diskon 25% untuk semua produk bulan ini!';
const NO_WA_REASON = 'Nomor tidak terdaftar di WhatsApp atau tidak dapat menerima pesan';
const HELD_REASON = errorMeaning(131049).reason;

let e2e: E2E;
let whatsapp: LocalCloudApi;
let client: Client;
let clientPage: Page;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E({
    delivery: {
      ...ENGINE_DEFAULTS,
      recipientGapMs: 0,
      retryBaseMs: 100,
      maxAttempts: 3,
      idleMs: 50,
    },
  });
  whatsapp = await startLocalCloudApi({
    webhookUrl: `${e2e.url}${WEBHOOK_PATH}`,
    templates: structuredClone(DEFAULT_TEMPLATES),
    recipientGapMs: 0,
    statusDelayMs: STATUS_DELAY_MS,
    outcomes: OUTCOMES,
  });
  // The header image needs images allowed (an admin setting of its own, not this journey's).
  await saveSettings(e2e.server, { allow_images: true });
  client = await e2e.server.createClient({ username: 'toko-sari' });
  await setPoints(e2e.server, client, START_POINTS);
});
afterAll(async () => {
  await e2e?.close();
  await whatsapp?.close();
});

describe('a Cloud API blast from setup to refund', () => {
  it('the admin sets up the Cloud API, tests it and enables the image template', async () => {
    const page = await adminPage(e2e, '/');
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await page
      .getByRole('navigation', { name: 'Menu admin' })
      .getByRole('link', { name: 'Pengiriman' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();

    const o = whatsapp.options;
    await page.getByRole('radio', { name: /^WhatsApp Cloud API/ }).check();
    await field('Graph URL').fill(whatsapp.url);
    await field('Phone Number ID').fill(o.phoneNumberId);
    await field('WhatsApp Business Account ID').fill(o.businessAccountId);
    await field('Access Token').fill(o.accessToken);
    await field('App Secret').fill(o.appSecret);
    await field('Verify Token').fill(o.verifyToken);
    await field('Pesan per Detik').fill(String(MESSAGES_PER_SECOND));
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(page, 'Pengaturan pengiriman berhasil disimpan', { variant: 'success' });
    await dismissToasts(page);

    const test = page.getByRole('button', { name: 'Tes Koneksi' });
    await expect.poll(() => test.isDisabled()).toBe(false);
    await test.click();
    const check = page.locator('[data-connection-check]');
    await check.waitFor();
    expect(await check.textContent()).toBe(
      `Terhubung ke WhatsApp Cloud API: ${o.displayPhoneNumber} (${o.verifiedName})`,
    );

    await page.getByRole('button', { name: 'Sinkronkan Template' }).click();
    await expectToast(page, 'Template berhasil disinkronkan', { variant: 'success' });
    await dismissToasts(page);
    const toggle = page.getByRole('switch', { name: 'Aktifkan template promo_bulanan' });
    await toggle.click();
    await expectToast(page, 'Template promo_bulanan diaktifkan untuk klien', {
      variant: 'success',
    });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    // The double was asked for the phone number (Tes Koneksi) and the templates (sync).
    expect(whatsapp.requests.some((r) => r.path.endsWith('/message_templates'))).toBe(true);
    await page.context().close();
  });

  it('the client sends the template blast with an image and watches it being delivered', async () => {
    clientPage = await e2e.open('/login');
    const page = clientPage;
    await signIn(page, client.user.email, client.password);
    await expectShellBalance(page, START_POINTS);
    const nav = page.getByRole('navigation', { name: 'Menu klien' });
    await nav.getByRole('link', { name: 'Form Blast' }).click();

    await page.getByRole('combobox', { name: 'Template Pesan' }).click();
    await page.getByRole('option', { name: 'promo_bulanan (id)' }).click();
    await page.getByLabel('{{1}}').fill('Sari');
    await page.getByLabel('{{2}}').fill('25%');
    await page.getByLabel('Gambar Header').setInputFiles({
      name: 'promo.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#e65100', 240),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(ALL.join('\n'));
    await expect.poll(() => page.locator('[data-template-preview]').textContent()).toBe(PROMO_TEXT);
    await page.getByRole('img', { name: 'Gambar header' }).waitFor();

    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 6 nomor', { variant: 'success' });
    await expectShellBalance(page, START_POINTS - 6);
    await dismissToasts(page);

    // The detail, opened at once: from here on nothing reloads the page.
    const dialog = await openLiveDetail(page);
    // Mid-send: the numbers as the dialog first shows them (checked below from what it saw).
    await dialog.locator('[data-number-list]').scrollIntoViewIfNeeded();
    await shot(page, 'cloud-api-journey-detail-sending');

    // The end, without a reload: every number in its final state, with its reason.
    await expectFinalStates(
      dialog,
      {
        [wa(NUMBERS.noWa)]: 'No WA',
        [wa(NUMBERS.held)]: 'Gagal',
        [wa(NUMBERS.delivered)]: 'Diterima',
        [wa(NUMBERS.readA)]: 'Dibaca',
        [wa(NUMBERS.readB)]: 'Dibaca',
        [wa(NUMBERS.readC)]: 'Dibaca',
      },
      { [wa(NUMBERS.noWa)]: NO_WA_REASON, [wa(NUMBERS.held)]: HELD_REASON },
    );
    await expectCompleted(page, dialog, {
      success: 4,
      failed: 1,
      noWa: 1,
      balance: START_POINTS - 6 + 2,
    });
    // What the page saw on the way: states only ever move forward, and it saw them change.
    await expectStatesMovedForward(page, ['sent', 'read', 'failed']);
    await dialog.locator('[data-number-list]').scrollIntoViewIfNeeded();
    await shot(page, 'cloud-api-journey-detail-done');

    const blast = (await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests'))
      .items[0];
    expect(blast).toMatchObject({
      status: 'completed',
      delivery_mode: 'cloud_api',
      message: PROMO_TEXT,
      successful_count: 4,
      failed_count: 1,
      no_wa_count: 1,
      refund_points: 2,
    });
    await dialog.getByRole('button', { name: 'Tutup', exact: true }).last().click();
  }, 120_000);

  it('History Poin shows the refund of the two failures and the right balance', async () => {
    const page = clientPage;
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'History Poin' })
      .click();
    const entries = await ledgerEntries(page);
    const refunds = entries.filter((e) => e.type === 'refund');
    expect(refunds.length).toBeGreaterThan(0);
    expect(refunds.reduce((sum, e) => sum + e.delta, 0)).toBe(2);
    expect(entries.find((e) => e.type === 'usage')).toMatchObject({
      delta: -6,
      description: 'Blast WhatsApp ke 6 nomor',
    });
    const balance = START_POINTS - 6 + 2;
    expect(await page.locator('[data-history-balance]').textContent()).toBe(`${balance} poin`);
    expect(await page.getByRole('region', { name: 'Ringkasan poin' }).textContent()).toContain(
      'Total Refund2',
    );
    await expectShellBalance(page, balance);
    expect(await balanceOf(e2e.server, client)).toBe(balance);
    await shot(page, 'cloud-api-journey-history');
  });

  it('the local Cloud API got the image once and one message per number', async () => {
    await whatsapp.settled();
    const uploads = whatsapp.requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/media'),
    );
    expect(uploads).toHaveLength(1);
    expect(whatsapp.media.size).toBe(1);
    const [mediaId] = [...whatsapp.media.keys()];
    expect([...whatsapp.media.values()][0]!.mimeType).toMatch(/^image\//);

    for (const local of ALL) expect(whatsapp.sentTo(wa(local)), local).toBe(1);
    expect(whatsapp.sends).toHaveLength(ALL.length);
    for (const send of whatsapp.sends) {
      expect(send.template).toBe(PROMO.name);
      expect(send.components).toEqual(
        expect.arrayContaining([
          { type: 'header', parameters: [{ type: 'image', image: { id: mediaId } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Sari' },
              { type: 'text', text: '25%' },
            ],
          },
        ]),
      );
    }
    // Paced: six sends at two a second span about two and a half seconds.
    const times = whatsapp.sends.map((s) => s.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(2_000);
    // Every status webhook was taken (signed right, answered 200).
    expect(whatsapp.webhooks.every((w) => w.status === 200)).toBe(true);
  });

  it('Meta pauses the template: the admin sees it paused and the client is not offered it', async () => {
    whatsapp.changeTemplate(PROMO.id, 'PAUSED');
    await whatsapp.settled();
    const admin = await adminPage(e2e, '/delivery');
    const row = admin
      .getByRole('table', { name: 'Template pesan' })
      .getByRole('row')
      .filter({ hasText: 'promo_bulanan' });
    // The engine applies the kept webhook within its step; the table is read when the page opens.
    await expect
      .poll(async () => {
        await admin.reload();
        return row.textContent();
      })
      .toContain('Dijeda');
    expect(
      await row
        .getByRole('switch', { name: 'Aktifkan template promo_bulanan' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await shot(admin, 'cloud-api-journey-template-paused');
    await admin.context().close();

    const page = clientPage;
    const nav = page.getByRole('navigation', { name: 'Menu klien' });
    await nav.getByRole('link', { name: 'Form Blast' }).click();
    const none = page.getByText('Belum ada template pesan yang dapat dipakai. Hubungi admin.');
    await none.waitFor();

    whatsapp.changeTemplate(PROMO.id, 'APPROVED');
    await whatsapp.settled();
    await expect
      .poll(async () => {
        await page.reload();
        const form = page.getByRole('combobox', { name: 'Template Pesan' });
        await form.or(none).waitFor();
        return form.count();
      })
      .toBe(1);
  });
});
