// Pengaturan in Chromium: payment form checks, QR file checks and preview, upload-then-save,
// the image switch, the client preview, and the saved QR's fallback and failure messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  type Page,
  shot,
  startE2E,
} from './helpers.ts';
import { adminApi, pngBytes } from './seed.ts';

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/settings');
});
afterAll(async () => {
  await e2e?.close();
});

const form = () => page.getByRole('form', { name: 'Pengaturan sistem' });
const preview = () => page.locator('[data-client-preview]');
const fileInput = () => page.getByLabel('QR Code Pembayaran');

async function settingsOnServer() {
  return adminApi(e2e.server, 'GET', '/api/admin/settings');
}

describe('Pengaturan', () => {
  it('requires the payment details', async () => {
    await page.getByRole('heading', { level: 1, name: 'Pengaturan Sistem' }).waitFor();
    await preview().getByText('Informasi rekening belum tersedia').waitFor();
    await preview().getByRole('heading', { name: 'Informasi Top-Up Poin' }).waitFor();
    expect(
      await page
        .getByRole('switch', { name: 'Izinkan upload gambar' })
        .getAttribute('aria-checked'),
    ).toBe('false');
    await form().getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await form().getByText('Nama bank harus diisi').waitFor();
    await form().getByText('Nomor rekening harus diisi').waitFor();
    await form().getByText('Nama pemilik rekening harus diisi').waitFor();
    expect(await form().getByLabel('Nama Bank').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'admin-settings-errors');
  });

  it('checks a chosen QR file: type, size, a preview that fails, remove', async () => {
    await fileInput().setInputFiles({
      name: 'catatan.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('bukan gambar'),
    });
    await expectToast(page, 'File harus berupa gambar (PNG, JPG, GIF)', {
      title: 'Error',
      variant: 'destructive',
    });
    await form().getByText('File harus berupa gambar (PNG, JPG, GIF)').waitFor();
    expect(await fileInput().inputValue()).toBe('');

    await dismissToasts(page);
    await fileInput().setInputFiles({
      name: 'besar.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5_242_881, 1),
    });
    await expectToast(page, 'Ukuran file maksimal 5MB', { title: 'Error' });
    expect(await page.locator('[data-qr-new]').count()).toBe(0);

    // Declared a PNG but not one: the preview cannot load.
    await fileInput().setInputFiles({
      name: 'rusak.png',
      mimeType: 'image/png',
      buffer: Buffer.from('ini bukan png'),
    });
    await page.locator('[data-qr-new]').getByText('Preview tidak dapat dimuat').waitFor();
    expect(await form().getByText('File harus berupa gambar').count()).toBe(0);
    await page.getByRole('button', { name: 'Hapus File' }).click();
    expect(await page.locator('[data-qr-new]').count()).toBe(0);
    expect(await fileInput().inputValue()).toBe('');
  });

  it('uploads the new QR first, then saves the settings with it', async () => {
    await dismissToasts(page);
    await form().getByLabel('Nama Bank').fill('BCA');
    await form().getByLabel('Nomor Rekening').fill('1234567890');
    await form().getByLabel('Nama Pemilik Rekening').fill('PT Sebar Indonesia');
    // The client preview follows what is typed.
    const shown = (await preview().textContent()) ?? '';
    expect(shown).toContain('BCA');
    expect(shown).toContain('1234567890');
    expect(shown).toContain('PT Sebar Indonesia');

    await fileInput().setInputFiles({
      name: 'qr.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#123456', 120),
    });
    await page.getByRole('img', { name: 'Preview QR Code baru' }).waitFor();
    await preview().getByRole('img', { name: 'QR Code pembayaran (preview klien)' }).waitFor();
    await page.getByRole('switch', { name: 'Izinkan upload gambar' }).click();
    expect(await page.locator('[data-allow-images-state]').textContent()).toBe('Aktif');
    await shot(page, 'admin-settings-new-qr');

    // Hold the save a moment so its busy state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/settings', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') requests.push(new URL(r.url()).pathname);
    });
    await form().getByRole('button', { name: 'Simpan Pengaturan' }).click();
    const busy = form().getByRole('button', { name: 'Menyimpan...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await expectToast(page, 'Pengaturan berhasil disimpan', { title: 'Berhasil' });
    await page.unroute('**/api/admin/settings');
    expect(requests).toEqual(['/api/admin/upload-qr', '/api/admin/settings']);

    const saved = await settingsOnServer();
    expect(saved).toMatchObject({
      bank_name: 'BCA',
      account_number: '1234567890',
      account_name: 'PT Sebar Indonesia',
      allow_images: true,
    });
    expect(saved.qr_code_file).toMatch(/^\/uploads\//);
    expect(saved.barcode_url).toBe(saved.qr_code_file);
    expect(saved.qr_data_url).toMatch(/^data:image\/png;base64,/);
    // The form now shows the saved QR, and the new-file preview is gone.
    await page.getByRole('img', { name: 'QR Code pembayaran saat ini' }).waitFor();
    expect(await page.locator('[data-qr-new]').count()).toBe(0);
    await shot(page, 'admin-settings-desktop');

    await page.reload();
    await form().getByLabel('Nama Bank').waitFor();
    expect(await form().getByLabel('Nomor Rekening').inputValue()).toBe('1234567890');
    expect(
      await page
        .getByRole('switch', { name: 'Izinkan upload gambar' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    expect(
      await page.getByRole('img', { name: 'QR Code pembayaran saat ini' }).getAttribute('src'),
    ).toBe(saved.qr_data_url);
  });

  it('saves without a new file, keeping the QR, and turns images off', async () => {
    await dismissToasts(page);
    const before = await settingsOnServer();
    await form().getByLabel('Nama Bank').fill('Mandiri');
    await page.getByRole('switch', { name: 'Izinkan upload gambar' }).click();
    await form().getByRole('button', { name: 'Simpan Pengaturan' }).click();
    await expectToast(page, 'Pengaturan berhasil disimpan');
    const saved = await settingsOnServer();
    expect(saved).toMatchObject({
      bank_name: 'Mandiri',
      allow_images: false,
      qr_code_file: before.qr_code_file,
      qr_data_url: before.qr_data_url,
    });
  });

  it('falls back to the QR data when the saved image does not load', async () => {
    await dismissToasts(page);
    const saved = await settingsOnServer();
    const filename = saved.qr_code_file.split('/').pop();
    // The file is named by an address that cannot load; the data comes from qr-data/{filename}.
    await adminApi(e2e.server, 'POST', '/api/admin/settings', {
      ...saved,
      qr_data_url: null,
      qr_code_file: `http://127.0.0.1:9/uploads/${filename}`,
      barcode_url: `http://127.0.0.1:9/uploads/${filename}`,
    });
    const fallback = page.waitForRequest((r) => r.url().endsWith(`/api/admin/qr-data/${filename}`));
    await page.reload();
    await fallback;
    const image = page.getByRole('img', { name: 'QR Code pembayaran saat ini' });
    await expect.poll(() => image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  });

  it('says so when neither the QR nor its fallback loads', async () => {
    await adminApi(e2e.server, 'POST', '/api/admin/settings', {
      ...(await settingsOnServer()),
      qr_data_url: null,
      qr_code_file: '/uploads/tidak-ada.png',
      barcode_url: '/uploads/tidak-ada.png',
    });
    await page.reload();
    const failure = page.locator('[data-qr-saved] [data-qr-error]');
    await failure.getByText('QR Code tidak dapat dimuat').waitFor();
    await failure.getByText(/upload ulang/).waitFor();
    await preview().getByText('QR Code tidak dapat ditampilkan').waitFor();
    await shot(page, 'admin-settings-qr-failed');
  });

  it('works at phone width', async () => {
    const phone = await adminPage(e2e, '/settings', 'phone');
    await phone.getByLabel('Nama Bank').waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-settings-phone');
    await phone.context().close();
  });
});
