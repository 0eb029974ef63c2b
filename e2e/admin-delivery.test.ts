// Pengiriman in Chromium: the mode, the Cloud API settings with write-only secrets, field
// messages, and what 'Tes Koneksi' says.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectStackedInTabOrder,
  expectToast,
  focused,
  type Page,
  shot,
  startE2E,
} from './helpers.ts';
import { adminApi } from './seed.ts';

let e2e: E2E;
let page: Page;
let closedPort = 0;

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/');
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await e2e?.close();
});

const field = (label: string) => page.getByLabel(label, { exact: true });

describe('Pengiriman', () => {
  it('opens from the menu in manual mode with the Cloud API defaults', async () => {
    await page
      .getByRole('navigation', { name: 'Menu admin' })
      .getByRole('link', { name: 'Pengiriman' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();
    expect(await page.getByRole('radio', { name: /^Manual/ }).isChecked()).toBe(true);
    expect(await field('Graph URL').inputValue()).toBe('https://graph.facebook.com');
    expect(await field('Versi API').inputValue()).toBe('v23.0');
    expect(await field('Pesan per Detik').inputValue()).toBe('20');
    expect(await field('Callback URL Webhook').inputValue()).toBe(
      new URL('/api/webhooks/whatsapp', page.url()).href,
    );
    // Focused, it is selected whole, ready to be copied into Meta's settings.
    await field('Callback URL Webhook').focus();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(
      new URL('/api/webhooks/whatsapp', page.url()).href,
    );
    expect(await page.getByText('Belum diisi.').count()).toBe(3);
    await shot(page, 'admin-delivery-desktop');
  });

  it('says what the Cloud API mode still needs, and saves nothing', async () => {
    await page.getByRole('radio', { name: /^WhatsApp Cloud API/ }).check();
    await field('Phone Number ID').fill('12a');
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await page.getByText('Phone Number ID hanya boleh berisi angka').waitFor();
    await field('Phone Number ID').fill('106540352242922');
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(
      page,
      'Mode Cloud API belum dapat dipakai: WhatsApp Business Account ID, Access token, App secret, Verify token harus diisi',
      { variant: 'destructive' },
    );
    expect((await adminApi(e2e.server, 'GET', '/api/admin/delivery')).mode).toBe('manual');
    await dismissToasts(page);
  });

  it('saves the Cloud API settings; the secrets are kept and never shown again', async () => {
    await field('WhatsApp Business Account ID').fill('102290129340398');
    await field('Access Token').fill('EAAG-token-rahasia');
    await field('App Secret').fill('app-secret-rahasia');
    await field('Verify Token').fill('verify-rahasia');
    await field('Pesan per Detik').fill('40');
    await field('Batas Penerima Harian').fill('1000');
    await field('Graph URL').fill(`http://127.0.0.1:${closedPort}`);
    // With the keyboard: the button keeps the focus while it saves and after.
    await page.getByRole('button', { name: 'Simpan Pengaturan' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Pengaturan pengiriman berhasil disimpan', { variant: 'success' });
    expect((await focused(page)).text).toBe('Simpan Pengaturan');
    expect(await page.getByText('Tersimpan. Kosongkan jika tidak diubah.').count()).toBe(3);
    expect(await field('Access Token').inputValue()).toBe('');
    const saved = await adminApi(e2e.server, 'GET', '/api/admin/delivery');
    expect(saved).toMatchObject({
      mode: 'cloud_api',
      cloud_api: {
        phone_number_id: '106540352242922',
        messages_per_second: 40,
        daily_recipient_limit: 1000,
        access_token_set: true,
      },
    });
    expect(JSON.stringify(saved)).not.toContain('rahasia');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();
    expect(await page.getByRole('radio', { name: /^WhatsApp Cloud API/ }).isChecked()).toBe(true);
    expect(await field('Batas Penerima Harian').inputValue()).toBe('1000');
  });

  it('Tes Koneksi says the Graph API cannot be reached, and waits for unsaved changes', async () => {
    await page.getByRole('button', { name: 'Tes Koneksi' }).focus();
    await page.keyboard.press('Enter');
    const result = page.locator('[data-connection-check]');
    await result.waitFor();
    expect(await result.textContent()).toBe(
      `Graph API di http://127.0.0.1:${closedPort} tidak dapat dihubungi`,
    );
    expect((await focused(page)).text).toBe('Tes Koneksi');
    await field('Pesan per Detik').fill('50');
    expect(await page.getByRole('button', { name: 'Tes Koneksi' }).isDisabled()).toBe(true);
    await page.getByText('Simpan perubahan dulu sebelum menguji koneksi.').waitFor();
    await shot(page, 'admin-delivery-check');
  });

  it('says a chosen mode is not saved yet, and asks before leaving with changes', async () => {
    // Pesan per Detik is still changed from the test before.
    await page.getByRole('radio', { name: /^Manual/ }).check();
    await page.locator('[data-mode-unsaved]').waitFor();
    await page.getByRole('link', { name: 'Hasil Blast' }).first().click();
    const ask = page.getByRole('alertdialog', { name: 'Perubahan belum disimpan' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Tetap di sini' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/delivery');
    expect(await page.getByRole('radio', { name: /^Manual/ }).isChecked()).toBe(true);
    // A reload or a closed tab: the browser asks too (its own dialog).
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    await page.getByRole('link', { name: 'Hasil Blast' }).first().click();
    await ask.getByRole('button', { name: 'Tinggalkan' }).click();
    await page.waitForURL('**/blast-results');
    // Nothing was saved.
    expect((await adminApi(e2e.server, 'GET', '/api/admin/delivery')).mode).toBe('cloud_api');
  });

  it('works at phone width', async () => {
    const phone = await adminPage(e2e, '/delivery', 'phone');
    await phone.getByRole('heading', { level: 1, name: 'Pengiriman' }).waitFor();
    await expectNoSidewaysScroll(phone);
    // Tes Koneksi comes before Simpan Pengaturan to the eye (above it) as to the Tab key.
    await expectStackedInTabOrder(
      phone,
      phone.getByRole('button', { name: 'Tes Koneksi' }),
      phone.getByRole('button', { name: 'Simpan Pengaturan' }),
      'Simpan Pengaturan',
    );
    // A toast shows below the sticky header: the menu button stays in sight and reachable.
    await phone.keyboard.press('Enter');
    await expectToast(phone, 'Pengaturan pengiriman berhasil disimpan');
    const menu = phone.getByRole('button', { name: 'Buka menu' });
    const box = (await menu.boundingBox())!;
    const atMenu = await phone.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('aria-label'),
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(atMenu).toBe('Buka menu');
    await shot(phone, 'admin-delivery-phone-toast');
    await dismissToasts(phone);
    await shot(phone, 'admin-delivery-phone');
    await phone.close();
  });
});
