// Form Blast in Cloud API mode, in Chromium against the real server and the local Cloud API: no
// enabled template says so; a template's parameters are checked as they are typed (the button
// waits), the preview follows the typing, the header image is required, and the blast is made
// with the rendered text. Screenshots at desktop width and at 390 px.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { DEFAULT_TEMPLATES } from '#local-apis/cloud-api/templates.ts';
import {
  clientPage,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectShellBalance,
  expectToast,
  type Page,
  patientPolls,
  screenshot,
  startE2E,
} from './helpers.ts';
import {
  adminApi,
  balanceOf,
  type Client,
  clientApi,
  numbers,
  pngBytes,
  saveSettings,
  setPoints,
} from './seed.ts';

let e2e: E2E;
let double: LocalCloudApi;

const idOf = (name: string) => DEFAULT_TEMPLATES.find((t) => t.name === name)!.id;
const PROMO_TEXT = 'Halo Budi, nikmati diskon 20% untuk semua produk bulan ini!';

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E();
  double = await startLocalCloudApi({ templates: structuredClone(DEFAULT_TEMPLATES) });
  await saveSettings(e2e.server, { allow_images: true });
  await adminApi(e2e.server, 'PUT', '/api/admin/delivery', {
    mode: 'cloud_api',
    cloud_api: {
      ...cloudApiSettingsOf(double),
    },
  });
  await adminApi(e2e.server, 'POST', '/api/admin/delivery/templates/sync');
});
afterAll(async () => {
  await e2e?.close();
  await double?.close();
});

async function signedIn(
  points: number,
  size: 'desktop' | 'phone' = 'desktop',
): Promise<{ page: Page; client: Client }> {
  const client = await e2e.server.createClient();
  await setPoints(e2e.server, client, points);
  const page = await clientPage(e2e, client, '/blast-form', size);
  return { page, client };
}

const sendButton = (page: Page) => page.getByRole('button', { name: 'KIRIM BLAST REQUEST' });
const preview = (page: Page) => page.locator('[data-template-preview]');

const enableTemplate = (name: string) =>
  adminApi(e2e.server, 'PUT', `/api/admin/delivery/templates/${idOf(name)}`, { enabled: true });

/** The bodies of the blasts the page posts, as they are posted. */
function blastsPosted(page: Page): unknown[] {
  const posted: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/client/blast-requests'))
      posted.push(r.postDataJSON());
  });
  return posted;
}

async function pickTemplate(page: Page, name: string) {
  await page.getByRole('combobox', { name: 'Template Pesan' }).click();
  await page.getByRole('option', { name: `${name} (id)` }).click();
}

describe('Form Blast with WhatsApp templates', () => {
  it('says so plainly, and offers no way to send, while no template is enabled', async () => {
    const { page } = await signedIn(5);
    await page.getByText('Belum ada template pesan yang dapat dipakai. Hubungi admin.').waitFor();
    expect(await sendButton(page).count()).toBe(0);
    expect(await page.getByLabel('Pesan', { exact: true }).count()).toBe(0);
    await screenshot(page, 'client-template-blast-none');
    await page.context().close();
  });

  it('checks parameters as typed, previews the text, requires the header image, then sends', async () => {
    for (const name of ['promo_bulanan', 'pengingat_tagihan']) await enableTemplate(name);
    const { page, client } = await signedIn(10);
    const posted = blastsPosted(page);
    // No free message in this mode: a template instead.
    expect(await page.getByLabel('Pesan', { exact: true }).count()).toBe(0);
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(2).join('\n'));
    await pickTemplate(page, 'promo_bulanan');

    const first = page.getByLabel('{{1}}');
    const second = page.getByLabel('{{2}}');
    expect(await first.getAttribute('placeholder')).toBe('Budi');
    expect(await second.getAttribute('placeholder')).toBe('20%');
    expect(await preview(page).textContent()).toBe(
      'Halo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
    );
    // Nothing is said under an untouched field, but the button waits for every value.
    expect(await page.locator('#blast-parameter-1-error').count()).toBe(0);
    expect(await sendButton(page).isDisabled()).toBe(true);
    await page
      .getByText('Isi semua parameter template dengan benar untuk mengirim blast.')
      .waitFor();

    // The preview follows the typing.
    await first.pressSequentially('Budi', { delay: 20 });
    await expect
      .poll(() => preview(page).textContent())
      .toBe('Halo Budi, nikmati diskon {{2}} untuk semua produk bulan ini!');

    // A line break and five spaces are what Meta refuses: said under the field, button blocked.
    await second.fill('20%\nsemua');
    const secondError = page.locator('#blast-parameter-2-error');
    expect(await secondError.textContent()).toBe(
      'Parameter tidak boleh berisi baris baru atau tab',
    );
    expect(await second.getAttribute('aria-invalid')).toBe('true');
    expect(await sendButton(page).isDisabled()).toBe(true);
    await second.fill('20%     semua');
    expect(await secondError.textContent()).toBe(
      'Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut',
    );
    await second.fill('20%');
    expect(await secondError.count()).toBe(0);
    expect(await preview(page).textContent()).toBe(PROMO_TEXT);
    expect(await sendButton(page).isDisabled()).toBe(false);

    // The header image is required: said under the picker, which takes the focus.
    await sendButton(page).click();
    await expectToast(
      page,
      'Template ini membutuhkan gambar header. Upload gambar terlebih dahulu.',
      { variant: 'destructive' },
    );
    expect(await page.locator('#blast-image-error').textContent()).toBe(
      'Template ini membutuhkan gambar header. Upload gambar terlebih dahulu.',
    );
    const picker = page.getByLabel('Gambar Header');
    await expect.poll(() => picker.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(posted).toHaveLength(0);

    // A GIF, which a free message may carry, is not sent by Meta in a template's header.
    await page.getByText('PNG, JPG hingga 5MB').waitFor();
    await picker.setInputFiles({
      name: 'promo.gif',
      mimeType: 'image/gif',
      buffer: await sharp(await pngBytes())
        .gif()
        .toBuffer(),
    });
    await expectToast(page, 'Gambar header template harus berupa PNG atau JPG', {
      variant: 'destructive',
    });
    expect(await page.locator('#blast-image-error').textContent()).toBe(
      'Gambar header template harus berupa PNG atau JPG',
    );
    expect(await page.locator('[data-image-preview]').count()).toBe(0);
    await dismissToasts(page);

    await picker.setInputFiles({
      name: 'promo.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#0f9d58', 240),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
    expect(await page.locator('#blast-image-error').count()).toBe(0);
    await page.getByRole('img', { name: 'Gambar header' }).waitFor();
    await expectNoSidewaysScroll(page);
    await dismissToasts(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'client-template-blast-desktop');

    await sendButton(page).click();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 2 nomor', { variant: 'success' });
    await expectShellBalance(page, 8);
    expect(posted).toEqual([
      {
        template_id: idOf('promo_bulanan'),
        parameters: { '1': 'Budi', '2': '20%' },
        target_numbers: ['6281200000001', '6281200000002'],
        image_url: expect.stringMatching(/^\/uploads\//),
      },
    ]);
    // The list shows the blast with the text the recipients read.
    await page.locator(`main [title="${PROMO_TEXT}"]`).waitFor();
    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      message: PROMO_TEXT,
      delivery_mode: 'cloud_api',
      template: { name: 'promo_bulanan', header_format: 'IMAGE' },
      image_url: expect.stringMatching(/^\/uploads\//),
    });
    expect(await balanceOf(e2e.server, client)).toBe(8);
    await page.context().close();
  });

  it('a template without a header image has no image field; switching templates starts afresh', async () => {
    const { page, client } = await signedIn(3);
    await pickTemplate(page, 'promo_bulanan');
    await page.getByLabel('{{1}}').fill('Budi');
    await page.getByLabel('Gambar Header').setInputFiles({
      name: 'promo.png',
      mimeType: 'image/png',
      buffer: await pngBytes(),
    });
    await pickTemplate(page, 'pengingat_tagihan');
    expect(await page.getByText('Gambar Header').count()).toBe(0);
    expect(await page.locator('[data-image-preview]').count()).toBe(0);
    const value = page.getByLabel('{{1}}');
    expect(await value.inputValue()).toBe('');
    expect(await value.getAttribute('placeholder')).toBe('Rp150.000');
    expect(await preview(page).textContent()).toBe(
      'Tagihan Anda sebesar {{1}} jatuh tempo besok. Terima kasih.',
    );
    await value.fill('Rp75.000');
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(1, 50).join('\n'));
    // A reload gives back the template, its value and the numbers.
    await page.reload();
    await expect.poll(() => page.getByLabel('{{1}}').inputValue()).toBe('Rp75.000');
    expect(await page.getByLabel('Nomor WhatsApp Tujuan').inputValue()).toBe(
      numbers(1, 50).join('\n'),
    );
    expect(await preview(page).textContent()).toBe(
      'Tagihan Anda sebesar Rp75.000 jatuh tempo besok. Terima kasih.',
    );
    await sendButton(page).click();
    await page.waitForURL('**/blast-results');
    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    expect(list.items[0]).toMatchObject({
      message: 'Tagihan Anda sebesar Rp75.000 jatuh tempo besok. Terima kasih.',
      image_url: null,
      template: { name: 'pengingat_tagihan', parameters: { '1': 'Rp75.000' } },
    });
    await page.context().close();
  });

  it('fills a text header and a URL button’s end, shows where the button leads, sends them', async () => {
    await enableTemplate('promo_kilat');
    const { page, client } = await signedIn(3);
    const posted = blastsPosted(page);
    await pickTemplate(page, 'promo_kilat');
    const header = page.getByLabel('Header {{1}}');
    const suffix = page.getByLabel('Akhiran URL tombol Lihat promo');
    expect(await header.getAttribute('placeholder')).toBe('Kilat');
    expect(await suffix.getAttribute('placeholder')).toBe('kilat-123');
    expect(await suffix.getAttribute('aria-describedby')).toBe('blast-parameter-button-0-hint');
    await page.getByText('Ditambahkan di akhir https://toko.example/promo/').waitFor();
    const buttons = page.getByRole('list', { name: 'Tombol pesan' }).getByRole('listitem');
    expect(await buttons.allTextContents()).toEqual([
      'Lihat promohttps://toko.example/promo/{{1}}',
      'Berhenti',
    ]);

    await header.fill('Kilat');
    await page.getByLabel('{{1}}', { exact: true }).fill('Budi');
    await page.getByLabel('{{2}}', { exact: true }).fill('HEMAT50');
    // An address cannot hold a space: said under the field, and the button waits.
    await suffix.fill('kilat 7');
    expect(await page.locator('#blast-parameter-button-0-error').textContent()).toBe(
      'Akhiran URL tidak boleh berisi spasi',
    );
    expect(await sendButton(page).isDisabled()).toBe(true);
    await suffix.fill('kilat-7');
    const text =
      'Promo Kilat\n\nHalo Budi, pakai kode HEMAT50 sebelum tengah malam.\n\nBalas STOP untuk berhenti';
    expect(await preview(page).textContent()).toBe(text);
    expect(await buttons.first().textContent()).toBe(
      'Lihat promohttps://toko.example/promo/kilat-7',
    );
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(1, 70).join('\n'));
    await screenshot(page, 'client-template-blast-header-button');
    await sendButton(page).click();
    await page.waitForURL('**/blast-results');
    expect(posted).toEqual([
      {
        template_id: idOf('promo_kilat'),
        parameters: { 'header.1': 'Kilat', '1': 'Budi', '2': 'HEMAT50', 'button.0': 'kilat-7' },
        target_numbers: [numbers(1, 70)[0]!.replace(/^0/, '62')],
        image_url: null,
      },
    ]);
    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    expect(list.items[0]).toMatchObject({ message: text, template: { name: 'promo_kilat' } });
    await page.context().close();
  });

  it('sends nothing when the header image does not upload', async () => {
    const { page, client } = await signedIn(3);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/client/blast-requests'))
        posts.push(r.url());
    });
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(1).join('\n'));
    await pickTemplate(page, 'promo_bulanan');
    await page.getByLabel('{{1}}').fill('Budi');
    await page.getByLabel('{{2}}').fill('20%');
    // The server cannot take the image just now.
    await page.route('**/api/upload/image', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ detail: 'Penyimpanan gambar sedang tidak tersedia' }),
      }),
    );
    await page.getByLabel('Gambar Header').setInputFiles({
      name: 'foto.png',
      mimeType: 'image/png',
      buffer: await pngBytes(),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
    await sendButton(page).click();
    await expectToast(
      page,
      'Gagal mengupload gambar header. Blast belum dikirim. Penyimpanan gambar sedang tidak tersedia',
      { title: 'Error Upload Gambar', variant: 'destructive' },
    );
    expect(new URL(page.url()).pathname).toBe('/blast-form');
    expect(posts).toHaveLength(0);
    expect(await balanceOf(e2e.server, client)).toBe(3);
    await page.context().close();
  });

  it('reads well at 390 px: nothing sideways, the fields one under another', async () => {
    const { page } = await signedIn(5, 'phone');
    await page.setViewportSize({ width: 390, height: 844 });
    await pickTemplate(page, 'promo_bulanan');
    await page.getByLabel('{{1}}').fill('Budi Santoso dari Kelurahan Sukamaju Kecamatan Cibinong');
    await page.getByLabel('{{2}}').fill('20%\n');
    await page.getByLabel('Gambar Header').setInputFiles({
      name: 'promo-akhir-tahun-dengan-nama-berkas-yang-panjang.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#1e88e5', 240),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
    await page.locator('#blast-parameter-2-error').waitFor();
    await expectNoSidewaysScroll(page);
    const [one, two] = await Promise.all(
      ['{{1}}', '{{2}}'].map((label) => page.getByLabel(label).boundingBox()),
    );
    expect(two!.y).toBeGreaterThan(one!.y + one!.height);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'client-template-blast-390');
    await page.context().close();
  });

  it('says so when the chosen template leaves the list while the form is open', async () => {
    await enableTemplate('konfirmasi_kehadiran');
    const { page } = await signedIn(3);
    await pickTemplate(page, 'konfirmasi_kehadiran');
    // Meta pauses it, or the admin turns it off: the form reads the list again by itself.
    await adminApi(
      e2e.server,
      'PUT',
      `/api/admin/delivery/templates/${idOf('konfirmasi_kehadiran')}`,
      {
        enabled: false,
      },
    );
    await page.locator('[data-template-gone]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-template-gone]').textContent()).toContain(
      'Template yang dipilih tidak dapat dipakai lagi',
    );
    await page.context().close();
  });

  it('says a header image cannot go while the admin does not allow images, and waits', async () => {
    await saveSettings(e2e.server, { allow_images: false });
    try {
      const { page } = await signedIn(3);
      await pickTemplate(page, 'promo_bulanan');
      await page
        .getByText(
          'Template ini membutuhkan gambar header, tetapi admin belum mengizinkan pengiriman gambar.',
          { exact: false },
        )
        .waitFor();
      expect(await page.getByLabel('Gambar Header').count()).toBe(0);
      await page.getByLabel('{{1}}').fill('Budi');
      await page.getByLabel('{{2}}').fill('20%');
      expect(await sendButton(page).isDisabled()).toBe(true);
      await page.context().close();
    } finally {
      await saveSettings(e2e.server, { allow_images: true });
    }
  });
});
