// 'Template Pesan' on Pengiriman in Chromium, against the local Cloud API: the empty list, a
// refused sync, the synced templates with their statuses, and a template enabled for clients.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES, UNSENDABLE_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import {
  adminPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  focused,
  type Page,
  shot,
  startE2E,
} from './helpers.ts';
import { adminApi, clientApi, saveSettings } from './seed.ts';

let e2e: E2E;
let double: LocalCloudApi;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E();
  double = await startLocalCloudApi({
    templates: structuredClone([...DEFAULT_TEMPLATES, UNSENDABLE_TEMPLATES[0]!]),
  });
  page = await adminPage(e2e, '/delivery');
});
afterAll(async () => {
  await e2e?.close();
  await double?.close();
});

const row = (name: string) => page.getByRole('row').filter({ hasText: name });
const toggle = (name: string) => page.getByRole('switch', { name: `Aktifkan template ${name}` });

describe('Template Pesan', () => {
  it('starts empty and says how to fill it', async () => {
    await page.getByRole('heading', { name: 'Template Pesan' }).waitFor();
    await page.getByText('Belum ada template. Klik Sinkronkan Template.').waitFor();
  });

  it('shows the server’s reason when the sync cannot run', async () => {
    await page.getByRole('button', { name: 'Sinkronkan Template' }).click();
    await expectToast(
      page,
      'Gagal menyinkronkan template: Mode Cloud API belum dapat dipakai: Phone Number ID',
      { variant: 'destructive' },
    );
    await dismissToasts(page);
  });

  it('syncs the business account’s templates with their status and parameters', async () => {
    await adminApi(e2e.server, 'PUT', '/api/admin/delivery', {
      mode: 'cloud_api',
      cloud_api: {
        ...cloudApiSettingsOf(double),
      },
    });
    await page.getByRole('button', { name: 'Sinkronkan Template' }).click();
    await expectToast(page, 'Template berhasil disinkronkan', { variant: 'success' });
    await row('promo_bulanan').waitFor();
    expect(await page.getByRole('switch').count()).toBe(DEFAULT_TEMPLATES.length + 1);
    const cells = async (name: string) =>
      (await row(name).getByRole('cell').allTextContents()).map((text) => text.trim());
    // The name, and under it the body the recipients read, so the admin knows what is enabled.
    expect(await row('promo_bulanan').locator('[data-template-body]').textContent()).toBe(
      'Halo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
    );
    expect(await cells('promo_bulanan')).toEqual([
      'promo_bulananHalo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
      'id',
      'Gambar',
      'MARKETING',
      'Disetujui',
      '2',
      '',
    ]);
    // A text header's value and a URL button's end count as parameters too.
    expect((await cells('promo_kilat'))[2]).toBe('Teks');
    expect((await cells('promo_kilat'))[5]).toBe('4');
    expect((await cells('info_pengiriman'))[4]).toBe('Menunggu');
    expect((await cells('undian_berhadiah'))[4]).toBe('Ditolak');
    // Only an approved template that Sebar can send can be switched on (video_peluncuran has a
    // video header).
    expect(await toggle('info_pengiriman').isDisabled()).toBe(true);
    expect(await toggle('undian_berhadiah').isDisabled()).toBe(true);
    expect(await toggle('promo_bulanan').isDisabled()).toBe(false);
    expect((await cells('video_peluncuran'))[0]).toBe(
      'video_peluncuranTonton produk baru kami.Belum dapat dikirim Sebar: header video',
    );
    expect((await cells('video_peluncuran'))[4]).toBe('Disetujui');
    expect(await toggle('video_peluncuran').isDisabled()).toBe(true);
    await dismissToasts(page);
  });

  it('enables a template, which clients then get', async () => {
    // With the keyboard: the switch keeps the focus while its change is saved and after.
    await toggle('promo_bulanan').focus();
    await page.keyboard.press('Space');
    await expectToast(page, 'Template promo_bulanan diaktifkan untuk klien', {
      variant: 'success',
    });
    expect(await toggle('promo_bulanan').getAttribute('aria-checked')).toBe('true');
    expect((await focused(page)).label).toBe('Aktifkan template promo_bulanan');
    const client = await e2e.server.createClient({ username: 'pemakai-template' });
    const offered = await clientApi(e2e.server, client, 'GET', '/api/client/templates');
    expect(offered.map((t: { name: string }) => t.name)).toEqual(['promo_bulanan']);
    // Its header is an image: while images are not allowed, the admin is told no client can use it.
    const warning = page.locator('[data-images-off]');
    await saveSettings(e2e.server, { allow_images: false });
    await page.reload();
    await warning.waitFor();
    expect(await warning.textContent()).toContain('promo_bulanan membutuhkan gambar header');
    await saveSettings(e2e.server, { allow_images: true });
    await page.reload();
    await row('promo_bulanan').waitFor();
    expect(await warning.count()).toBe(0);
    await dismissToasts(page);
    await page.getByRole('heading', { name: 'Template Pesan' }).scrollIntoViewIfNeeded();
    await shot(page, 'admin-templates-desktop');
  });

  it('works at phone width', async () => {
    const phone = await adminPage(e2e, '/delivery', 'phone');
    await phone.getByRole('switch', { name: 'Aktifkan template promo_bulanan' }).waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-templates-phone');
    await phone.close();
  });
});
