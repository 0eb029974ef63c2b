// Issue 29's pairing in Chromium, against the local WAHA with the real delivery worker applying
// its webhooks: the admin chooses the gateway mode on 'Pengiriman', enters WAHA's address, key
// and a webhook secret, tests the connection, adds a device, sees its QR, and — once the phone
// "scans" it (the double's control) — watches the device turn 'Terhubung' without a reload; the
// queue card then shows the devices' pacing, not the Cloud API's rate.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWaha, type LocalWaha } from '#local-apis/waha/server.ts';
import { ENGINE_DEFAULTS } from '#server/modules/delivery/engine-options.ts';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectToast,
  focused,
  type Page,
  SCREENSHOT_DIR,
  shot,
  startE2E,
} from './helpers.ts';
import { adminApi } from './seed.ts';

let e2e: E2E;
let waha: LocalWaha;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E({ delivery: { ...ENGINE_DEFAULTS, idleMs: 50 } });
  waha = await startLocalWaha({ startingMs: 300 });
  page = await adminPage(e2e, '/delivery');
});
afterAll(async () => {
  await waha?.close();
  await e2e?.close();
});

const field = (label: string) => page.getByLabel(label, { exact: true });

describe('gateway devices', () => {
  it('sets up the gateway mode against the local WAHA and tests the connection', async () => {
    await page.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();
    await page.getByRole('radio', { name: /^WhatsApp Gateway \(WAHA\)/ }).check();
    await field('Base URL').fill(waha.url);
    await field('API Key').fill(waha.options.apiKey);
    await field('Webhook Secret').fill('rahasia-webhook-e2e');
    await field('Jeda Minimal (detik)').fill('30');
    await field('Jeda Maksimal (detik)').fill('10');
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await page.getByText('Jeda maksimal tidak boleh lebih kecil dari jeda minimal').waitFor();
    await field('Jeda Minimal (detik)').fill('8');
    await field('Jeda Maksimal (detik)').fill('20');
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(page, 'Pengaturan pengiriman berhasil disimpan', { variant: 'success' });
    await dismissToasts(page);
    expect(await page.getByText('Tersimpan. Kosongkan jika tidak diubah.').count()).toBe(2);
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/delivery');
    expect(saved.mode).toBe('gateway');
    expect(saved.gateway).toMatchObject({ base_url: waha.url, api_key_set: true });

    await page.getByRole('button', { name: 'Tes Koneksi' }).click();
    await page.locator('[data-connection-check]', { hasText: 'Terhubung ke WAHA' }).waitFor();
    await page.getByRole('heading', { name: 'Perangkat' }).waitFor();
    await shot(page, 'gateway-settings-desktop');
  });

  it('adds a device, shows its QR, and turns Terhubung once the phone scans it', async () => {
    // The settings' main session name ('Nama Sesi Utama', 'default') is offered for the first one.
    expect(await field('Nama Sesi Baru').inputValue()).toBe('default');
    await field('Nama Sesi Baru').fill('hp-toko');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Perangkat ditambahkan', { variant: 'success' });
    // The emptied form's button cannot be pressed again: the focus is back in its field.
    await expect.poll(async () => (await focused(page)).id).toBe('device-session');
    await dismissToasts(page);
    const row = page.locator('[data-device="hp-toko"]');
    await row.locator('[data-device-status="SCAN_QR_CODE"]').waitFor();
    expect(await row.getByText('Pindai QR').count()).toBe(1);
    // Pressed at the screen's foot, the toggle stays in sight and the QR comes into view below it.
    const toggle = row.getByRole('button', { name: 'Tampilkan QR' });
    await toggle.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await toggle.focus();
    await page.keyboard.press('Enter');
    const qr = row.getByRole('img', { name: 'QR pemasangan hp-toko' });
    await qr.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-device="hp-toko"] img');
      return (img?.naturalWidth ?? 0) > 0;
    });
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const inView = (box: { y: number; height: number }, height: number) =>
      box.y >= 0 && box.y + box.height <= height;
    const height = page.viewportSize()!.height;
    await expect.poll(async () => inView((await qr.boundingBox())!, height)).toBe(true);
    expect(
      inView((await row.getByRole('button', { name: 'Sembunyikan QR' }).boundingBox())!, height),
    ).toBe(true);
    await shot(page, 'gateway-device-qr-desktop');

    // The phone scans the QR; WAHA posts session.status WORKING; the list refreshes itself.
    waha.pair('hp-toko', '6281100000077', 'Toko Sari');
    await row.locator('[data-device-status="WORKING"]').waitFor({ timeout: 15_000 });
    expect(await row.getByText('Terhubung').count()).toBe(1);
    await row.getByText('+6281100000077').waitFor();
    expect(await row.getByRole('img').count()).toBe(0);
    expect(await row.getByText('Kiriman hari ini:').textContent()).toContain('0 / 500');
    await shot(page, 'gateway-device-working-desktop');
  });

  it('shows the devices’ pacing on the queue card in place of the Cloud API’s rate', async () => {
    const card = page.locator('[data-queue-card]');
    await card.locator('[data-queue-gateway]').waitFor({ timeout: 15_000 });
    expect(await card.getByText('Kecepatan (pesan/detik)').count()).toBe(0);
    expect(await card.locator('[data-queue-pacing]').textContent()).toContain('8–20 detik');
    await card.getByText('1 perangkat siap mengirim').waitFor();
    await card.getByText('Jam Kirim 08:00-20:00 WIB').waitFor();
    const meter = card.getByRole('meter', { name: 'Kiriman Perangkat Hari Ini' });
    expect(await meter.getAttribute('aria-valuetext')).toBe('0 / 500');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'gateway-queue-card-desktop.png') });
  });

  it('logs the device out after a confirmation', async () => {
    const row = page.locator('[data-device="hp-toko"]');
    await row.getByRole('button', { name: 'Keluarkan' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Keluarkan' }).click();
    await expectToast(page, 'Perangkat dikeluarkan', { variant: 'success' });
    await row.locator('[data-pause-reason]').waitFor();
    expect(await row.getByText('Dijeda').count()).toBe(1);
    await shot(page, 'gateway-device-logged-out-desktop');
  });
});
