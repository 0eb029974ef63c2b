// Form Blast in gateway mode, in Chromium against the real server (no delivery worker, so the
// numbers stay queued): the free message with spintax and {nomor}, its hint, the preview for the
// first valid number with 'Acak ulang', a broken spintax said as it is typed and refused on
// submit, then the blast sent with an image and followed on Hasil Blast with its numbers 'Antre'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDeliveryMode } from '#server/test/delivery-mode.ts';
import {
  adminPage,
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
import { balanceOf, clientApi, numbers, pngBytes, saveSettings, setPoints } from './seed.ts';

let e2e: E2E;

const SPUN = '{Halo|Hai|Selamat pagi} kak, promo khusus untuk nomor {nomor} hari ini!';
const RENDERED = /^(Halo|Hai|Selamat pagi) kak, promo khusus untuk nomor 6281200000001 hari ini!$/;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E({ deliveryWorker: false });
  await saveSettings(e2e.server, { allow_images: true });
  // Gateway mode, written directly: its settings screen is built elsewhere.
  await writeDeliveryMode(e2e.server.database.db, 'gateway');
});
afterAll(async () => {
  await e2e?.close();
});

const sendButton = (page: Page) => page.getByRole('button', { name: 'KIRIM BLAST REQUEST' });
const previewText = (page: Page) => page.locator('[data-preview-text]').textContent();

describe('Form Blast in gateway mode', () => {
  it('previews spintax, says a broken one as typed, sends and shows the numbers queued', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 10);
    const page = await clientPage(e2e, client, '/blast-form');
    const posted: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/client/blast-requests'))
        posted.push(r.postDataJSON());
    });

    const message = page.getByLabel('Pesan', { exact: true });
    await message.waitFor();
    // The specification's own form, with the hint on spintax and {nomor}.
    await page.getByText('Tulis {Halo|Hai|Selamat pagi} agar setiap nomor').waitFor();
    expect(await previewText(page)).toBe('Tulis pesan untuk melihat pratinjau.');

    await message.fill(SPUN);
    await expect.poll(() => previewText(page)).toMatch(/untuk nomor 6281234567890 hari ini!$/);
    await page.getByText('Contoh untuk nomor 6281234567890 · 3 variasi pesan').waitFor();
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(3).join('\n'));
    await page.getByText('Untuk nomor 6281200000001 · 3 variasi pesan').waitFor();
    const first = await previewText(page);
    expect(first).toMatch(RENDERED);
    // 'Acak ulang' shows another rendering.
    await page.getByRole('button', { name: 'Acak ulang' }).click();
    await expect.poll(() => previewText(page)).not.toBe(first);
    expect(await previewText(page)).toMatch(RENDERED);

    // A broken spintax is said under the message as it is typed; a submit is refused with it.
    await message.fill('{Halo|Hai kak {nama}');
    const error = page.locator('#blast-message-error');
    await expect
      .poll(() => error.textContent())
      .toBe(
        'Spintax tidak valid: pilihan tidak boleh berisi "{" atau "}" (tidak boleh bertingkat)',
      );
    expect(await message.getAttribute('aria-invalid')).toBe('true');
    expect(await previewText(page)).toBe('Perbaiki spintax pada pesan untuk melihat pratinjau.');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'client-gateway-blast-error');
    await message.fill('Halo {nama}');
    await expect
      .poll(() => error.textContent())
      .toBe('Variabel {nama} tidak dikenal. Gunakan {nomor} atau pilihan seperti {Halo|Hai}');
    await sendButton(page).click();
    await expectToast(
      page,
      'Variabel {nama} tidak dikenal. Gunakan {nomor} atau pilihan seperti {Halo|Hai}',
      { variant: 'destructive' },
    );
    expect(posted).toHaveLength(0);

    await message.fill(SPUN);
    expect(await error.count()).toBe(0);
    await page.getByLabel('Gambar (Opsional)').setInputFiles({
      name: 'promo.png',
      mimeType: 'image/png',
      buffer: await pngBytes('#0f9d58', 240),
    });
    await page.locator('[data-image-preview][data-preview-status="ready"]').waitFor();
    await dismissToasts(page);
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'client-gateway-blast-form');

    await sendButton(page).click();
    await page.waitForURL('**/blast-results');
    await expectToast(page, 'Blast request berhasil dibuat untuk 3 nomor', { variant: 'success' });
    await expectShellBalance(page, 7);
    expect(posted).toEqual([
      {
        message: SPUN,
        target_numbers: numbers(3).map((n) => `62${n.slice(1)}`),
        image_url: expect.stringMatching(/^\/uploads\//),
      },
    ]);

    // Hasil Blast: the detail shows each number waiting in the queue.
    await dismissToasts(page);
    const results = page.getByRole('table', { name: 'Daftar blast request' });
    await results.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.locator('[data-number-row]').first().waitFor();
    const states = await dialog.locator('[data-delivery-state]').allTextContents();
    expect(states).toEqual(['Antre', 'Antre', 'Antre']);
    await dialog.getByText('dikirim melalui gateway WhatsApp, diperbarui otomatis').waitFor();
    expect(await dialog.locator('[data-spintax-note]').textContent()).toBe(
      'Setiap nomor menerima salah satu dari 3 variasi pesan ini, dengan {nomor} diganti nomor tujuannya.',
    );
    await screenshot(page, 'client-gateway-blast-detail');

    const list = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
    expect(list.items[0]).toMatchObject({
      message: SPUN,
      delivery_mode: 'gateway',
      status: 'pending',
      template: null,
    });
    expect(await balanceOf(e2e.server, client)).toBe(7);
    await page.context().close();
  });

  it('fits a phone, the preview under the message', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 5);
    const page = await clientPage(e2e, client, '/blast-form', 'phone');
    await page.getByLabel('Nomor WhatsApp Tujuan').fill(numbers(2).join('\n'));
    await page.getByLabel('Pesan', { exact: true }).fill(`${SPUN}\n{Terima kasih|Salam}!`);
    await expect
      .poll(() => previewText(page))
      .toMatch(/6281200000001 hari ini!\n(Terima kasih|Salam)!$/);
    await page.getByText('Untuk nomor 6281200000001 · 6 variasi pesan').waitFor();
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'client-gateway-blast-phone');
    await page.context().close();
  });

  it('shows the admin a gateway blast without result entry, its results from the gateway', async () => {
    const page = await adminPage(e2e, '/blast-results');
    const listRow = page.getByRole('row').filter({ hasText: SPUN.slice(0, 20) });
    await listRow.first().waitFor();
    expect(await listRow.getByRole('button', { name: /^Input Hasil/ }).count()).toBe(0);
    await listRow.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog
      .getByText('Hasil tiap nomor dicatat otomatis dari gateway WhatsApp, tidak diinput manual.')
      .waitFor();
    await dialog.locator('[data-spintax-note]').waitFor();
    expect(await dialog.getByRole('button', { name: 'Edit Status' }).count()).toBe(0);
    expect(await dialog.locator('[data-delivery-state]').allTextContents()).toEqual([
      'Antre',
      'Antre',
      'Antre',
    ]);
    await screenshot(page, 'admin-gateway-blast-detail');
    await page.context().close();
  });

  it('says the numbers a cancel kept from being sent were not sent, not that they failed', async () => {
    const client = await e2e.server.createClient();
    await setPoints(e2e.server, client, 5);
    await clientApi(e2e.server, client, 'POST', '/api/client/blast-requests', {
      message: 'Halo, pesan yang dibatalkan',
      target_numbers: numbers(2),
    });
    const page = await clientPage(e2e, client, '/blast-results', 'phone');
    const results = page.getByRole('table', { name: 'Daftar blast request' });
    await results.getByRole('button', { name: /^Detail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
    await dialog.getByRole('button', { name: 'Batalkan Blast' }).click();
    await page.getByRole('button', { name: 'Ya, Batalkan Blast' }).click();
    await expectToast(page, 'Blast berhasil dibatalkan. 2 poin dikembalikan.', {
      variant: 'success',
    });
    await expect
      .poll(() => dialog.locator('[data-delivery-state]').allTextContents())
      .toEqual(['Tidak dikirim', 'Tidak dikirim']);
    expect(await dialog.locator('[data-delivery-reason]').allTextContents()).toEqual([
      'Blast dibatalkan sebelum nomor ini dikirim',
      'Blast dibatalkan sebelum nomor ini dikirim',
    ]);
    // Counted among the failed (they are refunded), and said apart under the count.
    expect(await dialog.locator('[data-withdrawn-count]').allTextContents()).toEqual([
      '2 tidak dikirim',
      '2 tidak dikirim',
    ]);
    await dismissToasts(page);
    await screenshot(page, 'client-gateway-blast-cancelled');
    expect(await balanceOf(e2e.server, client)).toBe(5);
    await page.context().close();
  });
});
