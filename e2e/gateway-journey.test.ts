// Issue 29's browser journey, in Chromium through the real delivery worker and the local WAHA (no
// step simulated but the phone's): the admin chooses the gateway on 'Pengiriman', enters WAHA's
// address, key, webhook secret and pacing, tests the connection, adds a device, sees its QR and —
// once the phone scans it — watches it turn 'Terhubung' without a reload. A client then sends a
// blast with spintax, {nomor} and an image to six numbers and follows its detail, without a
// reload, as the numbers turn Diterima and Dibaca, and the one not on WhatsApp and the one WAHA
// acks ERROR fail with their reasons; History Poin shows the refund. The double's records say each
// number on WhatsApp got exactly one image message, rendered for it, and the other none. Last, a
// blast made while the sending hours are closed says when it will go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMessage, spintaxSeed } from '#common/spintax.ts';
import { sendingWindow } from '#common/sending-hours.ts';
import { outcomeBySuffix } from '#local-apis/waha/outcomes.ts';
import { startLocalWaha, type LocalWaha } from '#local-apis/waha/server.ts';
import { ENGINE_DEFAULTS } from '#server/modules/delivery/engine-options.ts';
import { formatDateTime } from '#common/format.ts';
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
  openNewestDetail,
} from './live-detail.ts';
import {
  adminApi,
  balanceOf,
  type Client,
  clientApi,
  pngBytes,
  saveSettings,
  setPoints,
} from './seed.ts';

/** The six numbers as the client types them; the double's outcome is by their last four digits. */
const NUMBERS = {
  noWa: '081277770001', // check-exists: not on WhatsApp
  failed: '081277770002', // accepted, then acked ERROR
  delivered: '081277770010', // acked SERVER, DEVICE
  readA: '081277770021', // SERVER, DEVICE, READ (the default)
  readB: '081277770022',
  readC: '081277770023',
} as const;
const ALL = Object.values(NUMBERS);
const wa = (local: string) => `62${local.slice(1)}`;
const SPUN = '{Halo|Hai|Selamat pagi} kak, promo khusus untuk nomor {nomor} hari ini!';
const START_POINTS = 20;
const SESSION = 'hp-toko';
const WEBHOOK_SECRET = 'rahasia-webhook-journey';
/** One pacing second lasts 20 ms: gaps of 30-45 "seconds" take 600-900 ms, six numbers ~4 s. */
const SECOND_MS = 20;
const NO_WA_REASON = 'Nomor tidak terdaftar di WhatsApp';
const ERROR_REASON = 'WhatsApp melaporkan pesan gagal terkirim';

let e2e: E2E;
let waha: LocalWaha;
let client: Client;
let clientPage: Page;
let blastId: string;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E({
    delivery: {
      ...ENGINE_DEFAULTS,
      retryBaseMs: 100,
      maxAttempts: 3,
      idleMs: 20,
      gatewaySecondMs: SECOND_MS,
    },
  });
  // Acks 700 ms apart: slow enough for the open detail to see the numbers move.
  waha = await startLocalWaha({ startingMs: 300, ackDelayMs: 700, outcomes: outcomeBySuffix });
  await saveSettings(e2e.server, { allow_images: true });
  client = await e2e.server.createClient({ username: 'toko-sari' });
  await setPoints(e2e.server, client, START_POINTS);
});
afterAll(async () => {
  await e2e?.close();
  await waha?.close();
});

describe('a gateway blast from pairing to refund', () => {
  it('the admin sets up WAHA, pairs a device by its QR and watches it turn Terhubung', async () => {
    const page = await adminPage(e2e, '/');
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await page
      .getByRole('navigation', { name: 'Menu admin' })
      .getByRole('link', { name: 'Pengiriman' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();

    await page.getByRole('radio', { name: /^WhatsApp Gateway \(WAHA\)/ }).check();
    await field('Base URL').fill(waha.url);
    await field('API Key').fill(waha.options.apiKey);
    await field('Webhook Secret').fill(WEBHOOK_SECRET);
    await field('Jeda Minimal (detik)').fill('30');
    await field('Jeda Maksimal (detik)').fill('45');
    await field('Jam Kirim (WIB)').fill('00:00-24:00');
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(page, 'Pengaturan pengiriman berhasil disimpan', { variant: 'success' });
    await dismissToasts(page);
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/delivery');
    expect(saved.mode).toBe('gateway');
    expect(saved.gateway).toMatchObject({
      base_url: waha.url,
      api_key_set: true,
      min_delay_seconds: 30,
      max_delay_seconds: 45,
      sending_hours: '00:00-24:00',
      check_numbers: true,
    });

    await page.getByRole('button', { name: 'Tes Koneksi' }).click();
    await page.locator('[data-connection-check]', { hasText: 'Terhubung ke WAHA' }).waitFor();

    await field('Nama Sesi Baru').fill(SESSION);
    await page.getByRole('button', { name: 'Tambah Perangkat' }).click();
    await expectToast(page, 'Perangkat ditambahkan', { variant: 'success' });
    await dismissToasts(page);
    const row = page.locator(`[data-device="${SESSION}"]`);
    await row.locator('[data-device-status="SCAN_QR_CODE"]').waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Tampilkan QR' }).click();
    const qr = row.getByRole('img', { name: `QR pemasangan ${SESSION}` });
    await qr.waitFor();
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    // WAHA was asked for the session with Sebar's webhook, signed with the secret entered.
    const webhook = waha.session(SESSION)!.config.webhooks![0]!;
    expect(webhook.url).toBe(`${e2e.url}/api/webhooks/waha`);
    expect(webhook.hmac?.key).toBe(WEBHOOK_SECRET);
    await shot(page, 'gateway-journey-qr');

    // The phone scans the QR: WAHA posts session.status WORKING and the list turns by itself.
    await page.evaluate(() => ((window as any).__marked = true));
    waha.pair(SESSION, '6281100000077', 'Toko Sari');
    await row.locator('[data-device-status="WORKING"]').waitFor({ timeout: 15_000 });
    expect(await row.getByText('Terhubung').count()).toBe(1);
    await row.getByText('+6281100000077').waitFor();
    expect(await row.getByRole('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__marked)).toBe(true);
    await shot(page, 'gateway-journey-working');
    await page.context().close();
  });

  it('the client sends a spintax blast with an image and follows it live', async () => {
    clientPage = await e2e.open('/login');
    const page = clientPage;
    await signIn(page, client.user.email, client.password);
    await expectShellBalance(page, START_POINTS);
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'Form Blast' })
      .click();

    await page.getByLabel('Pesan', { exact: true }).fill(SPUN);
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(ALL.join('\n'));
    await page.getByText(`Untuk nomor ${wa(NUMBERS.noWa)} · 3 variasi pesan`).waitFor();
    expect(await page.locator('[data-preview-text]').textContent()).toMatch(
      new RegExp(`^(Halo|Hai|Selamat pagi) kak, promo khusus untuk nomor ${wa(NUMBERS.noWa)} `),
    );
    await page.getByLabel('Gambar (Opsional)').setInputFiles({
      name: 'promo.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#0f9d58', 240),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();

    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 6 nomor', { variant: 'success' });
    await expectShellBalance(page, START_POINTS - 6);
    await dismissToasts(page);

    // The detail, opened at once: from here on nothing reloads the page.
    const dialog = await openLiveDetail(page);
    await dialog.getByText('dikirim melalui gateway WhatsApp, diperbarui otomatis').waitFor();
    expect(await dialog.locator('[data-spintax-note]').textContent()).toBe(
      'Setiap nomor menerima salah satu dari 3 variasi pesan ini, dengan {nomor} diganti nomor tujuannya.',
    );
    await dialog.locator('[data-number-list]').scrollIntoViewIfNeeded();
    await shot(page, 'gateway-journey-detail-sending');

    await expectFinalStates(
      dialog,
      {
        [wa(NUMBERS.noWa)]: 'No WA',
        [wa(NUMBERS.failed)]: 'Gagal',
        [wa(NUMBERS.delivered)]: 'Diterima',
        [wa(NUMBERS.readA)]: 'Dibaca',
        [wa(NUMBERS.readB)]: 'Dibaca',
        [wa(NUMBERS.readC)]: 'Dibaca',
      },
      { [wa(NUMBERS.noWa)]: NO_WA_REASON, [wa(NUMBERS.failed)]: ERROR_REASON },
    );
    await expectCompleted(page, dialog, {
      success: 4,
      failed: 1,
      noWa: 1,
      balance: START_POINTS - 6 + 2,
    });
    // What the page saw on the way: states only move forward, and it saw them change.
    await expectStatesMovedForward(page, ['queued', 'delivered', 'read', 'failed']);
    await dialog.locator('[data-number-list]').scrollIntoViewIfNeeded();
    await shot(page, 'gateway-journey-detail-done');

    const blast = (await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests'))
      .items[0];
    expect(blast).toMatchObject({
      status: 'completed',
      delivery_mode: 'gateway',
      message: SPUN,
      successful_count: 4,
      failed_count: 1,
      no_wa_count: 1,
      refund_points: 2,
    });
    blastId = blast.id;
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
    expect(refunds.reduce((sum, e) => sum + e.delta, 0)).toBe(2);
    expect(entries.find((e) => e.type === 'usage')).toMatchObject({ delta: -6 });
    const balance = START_POINTS - 6 + 2;
    expect(await page.locator('[data-history-balance]').textContent()).toBe(`${balance} poin`);
    expect(await page.getByRole('region', { name: 'Ringkasan poin' }).textContent()).toContain(
      'Total Refund2',
    );
    expect(await balanceOf(e2e.server, client)).toBe(balance);
    await shot(page, 'gateway-journey-history');
    // A refund line opens the blast it refunded.
    await page
      .getByRole('table', { name: 'Riwayat transaksi poin' })
      .locator('tbody tr', { has: page.locator('[data-transaction-type="refund"]') })
      .first()
      .getByRole('button', { name: 'Lihat blast' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.locator('[data-delivery-state]').first().waitFor();
    expect(await dialog.locator('[data-delivery-state]').count()).toBe(ALL.length);
    expect(await dialog.textContent()).toContain(wa(NUMBERS.noWa));
    await shot(page, 'gateway-journey-history-blast');
    await page.keyboard.press('Escape');
  });

  it('the local WAHA sent one image message per number on WhatsApp, none to the other', async () => {
    await waha.settled();
    const numbers = (
      await clientApi(e2e.server, client, 'GET', `/api/client/blast-requests/${blastId}`)
    ).numbers as { index: number; number: string }[];
    for (const local of ALL) {
      const sends = waha.sentTo(wa(local));
      if (local === NUMBERS.noWa) {
        expect(sends, local).toHaveLength(0);
        continue;
      }
      expect(sends, local).toHaveLength(1);
      const [send] = sends;
      expect(send!.session).toBe(SESSION);
      expect(send!.kind).toBe('image');
      expect(send!.file?.detectedMime).toBe('image/png');
      // The spintax rendered for this number, {nomor} its own.
      const { index } = numbers.find((n) => n.number === wa(local))!;
      expect(send!.caption).toBe(renderMessage(SPUN, wa(local), spintaxSeed(blastId, index)));
      expect(send!.caption).toContain(`nomor ${wa(local)} hari ini!`);
    }
    expect(waha.sends).toHaveLength(ALL.length - 1);
    // Paced as a person would: one device, gaps of at least 30 pacing seconds between numbers,
    // "typing…" shown in each chat before its message.
    const times = waha.sends.map((send) => send.at).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(3 * 30 * SECOND_MS);
    for (const send of waha.sends) {
      const typed = waha.presence.find(
        (p) => p.chatId === send.chatId && p.action === 'startTyping' && p.at <= send.at,
      );
      expect(typed, send.chatId).toBeDefined();
    }
    // The number not on WhatsApp was checked, never sent to.
    expect(waha.checks.find((c) => c.phone.endsWith('77770001'))?.numberExists).toBe(false);
    // Every event was taken (signed right, answered 200).
    expect(waha.webhooks.every((w) => w.status === 200)).toBe(true);
  });

  it('a blast made outside the sending hours says when it will go on', async () => {
    // A window closed now and for at least an hour more (Asia/Jakarta), so the hour cannot turn
    // while the test runs and open it; set by the admin on 'Pengiriman'.
    const hour = new Date(Date.now() + 7 * 3600_000).getUTCHours();
    const closed = hour < 22 ? `${String(hour + 2).padStart(2, '0')}:00-24:00` : '01:00-20:00';
    const admin = await adminPage(e2e, '/delivery');
    await admin.getByLabel('Jam Kirim (WIB)', { exact: true }).fill(closed);
    await admin.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(admin, 'Pengaturan pengiriman berhasil disimpan', { variant: 'success' });
    await admin.context().close();

    const page = clientPage;
    await page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'Form Blast' })
      .click();
    await page.getByLabel('Pesan', { exact: true }).fill('Halo kak {nomor}, promo malam ini');
    await page.getByLabel('Nomor WhatsApp Tujuan').fill('081277770031');
    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 1 nomor', { variant: 'success' });
    await dismissToasts(page);
    const opensAt = new Date(sendingWindow(closed, Date.now()).opensAt).toISOString();

    const dialog = await openNewestDetail(page);
    const note = dialog.locator('[data-held-reason]');
    await note.waitFor();
    expect(await note.textContent()).toBe(
      `Di luar jam kirim: pengiriman dilanjutkan ${formatDateTime(opensAt)}.`,
    );
    expect(await dialog.locator('[data-delivery-state]').allTextContents()).toEqual(['Antre']);
    await shot(page, 'gateway-journey-closed-hours');
    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    const detail = await clientApi(
      e2e.server,
      client,
      'GET',
      `/api/client/blast-requests/${list.items[0].id}`,
    );
    expect(detail).toMatchObject({ status: 'pending', resumes_at: opensAt });
    expect(waha.sentTo('6281277770031')).toHaveLength(0);
  });
});
