// Hasil Blast in Chromium: cards, 5 per page, detail, per-number statuses (edit, reset, save),
// result entry with its sum rules, re-edit behind its confirmation, and reject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '#common/format.ts';
import {
  adminPage,
  clientPage,
  dialogFocus,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  goTo,
  type Page,
  shot,
  startE2E,
  statValue,
} from './helpers.ts';
import {
  adminApi,
  balanceOf,
  type Client,
  createBlast,
  numbers,
  pngBytes,
  setPoints,
} from './seed.ts';

let e2e: E2E;
let page: Page;
let ani: Client;
let budi: Client;
/** ani's 4-number blast, the one most tests work on. */
let main: any;
/** budi's blast with an image, rejected by the admin. */
let withImage: any;

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/blast-results');
});
afterAll(async () => {
  await e2e?.close();
});

const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.locator('tbody tr', { hasText: text });

async function blastOnServer(id: string) {
  return adminApi(e2e.server, 'GET', `/api/admin/blast-requests/${id}`);
}

describe('Hasil Blast', () => {
  it('shows the empty state with no blasts', async () => {
    await page.getByRole('heading', { level: 1, name: 'Hasil Blast WhatsApp' }).waitFor();
    await page.getByText('Belum ada blast request').waitFor();
    expect(await statValue(page, 'Success Rate')).toBe('0%');
  });

  it('lists blasts 5 per page with the server summary', async () => {
    ani = await e2e.server.createClient({ username: 'ani' });
    budi = await e2e.server.createClient({ username: 'budi' });
    await setPoints(e2e.server, ani, 100);
    await setPoints(e2e.server, budi, 100);
    // Five older blasts of budi's, one completed, then budi's image blast and ani's main one.
    const older = [];
    for (let i = 0; i < 5; i++) {
      older.push(await createBlast(e2e.server, budi, `Promo lama ${i + 1}`, numbers(2, i * 10)));
    }
    await adminApi(e2e.server, 'POST', `/api/admin/blast-requests/${older[0].id}/result`, {
      successful_count: 2,
      failed_count: 0,
      no_wa_count: 0,
      admin_notes: null,
    });
    await adminApi(e2e.server, 'POST', '/api/admin/settings', {
      account_number: '123',
      account_name: 'PT Sebar',
      bank_name: 'BCA',
      barcode_url: null,
      qr_code_file: null,
      qr_data_url: null,
      allow_images: true,
    });
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(await pngBytes())], { type: 'image/png' }),
      'promo.png',
    );
    const upload = await fetch(`${e2e.url}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${budi.token}` },
      body: form,
    });
    const { url: imageUrl } = (await upload.json()) as { url: string };
    withImage = await createBlast(
      e2e.server,
      budi,
      'Diskon dengan gambar',
      numbers(3, 100),
      imageUrl,
    );
    main = await createBlast(
      e2e.server,
      ani,
      'Halo pelanggan setia, ada promo spesial minggu ini untuk Anda semua! Jangan lewatkan kesempatan ini.',
      numbers(4, 200),
    );

    await page.reload();
    await row('ani').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(5);
    await page.getByText('Menampilkan 1 sampai 5 dari 7 hasil').waitFor();
    expect(await statValue(page, 'Pending')).toBe('6');
    expect(await statValue(page, 'Selesai')).toBe('1');
    expect(await statValue(page, 'Total Request')).toBe('7');
    expect(await statValue(page, 'Success Rate')).toBe('14%');

    const first = page.locator('tbody tr').first();
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('ani');
    expect(text).toContain('Halo pelanggan setia, ada promo spesial minggu ini untuk And...');
    expect(text).toContain('4 nomor');
    expect(text).toContain('Pending');
    expect(text).toContain('Belum ada hasil');
    expect(await row('Diskon dengan gambar').getByText('Ada gambar').count()).toBe(1);
    expect(await first.getByText('Ada gambar').count()).toBe(0);
    await first.getByRole('button', { name: 'Input Hasil' }).waitFor();
    await first.getByRole('button', { name: 'Tolak' }).waitFor();
    expect(await first.getByRole('button', { name: 'Edit Hasil' }).count()).toBe(0);
    await shot(page, 'admin-blast-results-desktop');

    await page.getByRole('button', { name: 'Halaman 2' }).click();
    await page.getByText('Menampilkan 6 sampai 7 dari 7 hasil').waitFor();
    const completed = row('Promo lama 1');
    await completed.getByText('Selesai').waitFor();
    expect(await completed.textContent()).toContain('2 berhasil');
    await completed.getByRole('button', { name: 'Edit Hasil' }).waitFor();
    expect(await completed.getByRole('button', { name: 'Input Hasil' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Halaman 1' }).click();
    await row('ani').waitFor();
  });

  it('checks the result sums before entering a result', async () => {
    await row('ani').getByRole('button', { name: 'Input Hasil' }).click();
    await dialog().getByRole('heading', { name: 'Input Hasil Blast' }).waitFor();
    const success = dialog().getByLabel('Berhasil');
    const failed = dialog().getByLabel('Gagal');
    const noWa = dialog().getByLabel('Tidak Ada WA');
    const submit = dialog().getByRole('button', { name: 'Submit Hasil' });
    // Defaults: every number successful.
    expect([
      await success.inputValue(),
      await failed.inputValue(),
      await noWa.inputValue(),
    ]).toEqual(['4', '0', '0']);
    await dialog().getByText('Total hasil sudah sesuai dengan total nomor').waitFor();
    expect(await submit.isEnabled()).toBe(true);

    await failed.fill('1');
    await dialog().getByText('Total hasil (5) melebihi total nomor (4)!').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    for (const input of [success, failed, noWa])
      expect(await input.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'admin-blast-result-over');

    await success.fill('2');
    await noWa.fill(''); // blank counts as 0
    await dialog().getByText('Sisa 1 nomor belum diinput').waitFor();
    expect(await submit.isEnabled()).toBe(true);
    expect(await success.getAttribute('aria-invalid')).toBe('false');

    await success.fill('0');
    await failed.fill('0');
    await dialog().getByText('Total hasil harus lebih dari 0').waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await success.fill('2');
    await failed.fill('1');
    await noWa.fill('1');
    await dialog().getByText('Total hasil sudah sesuai dengan total nomor').waitFor();
    await dialog().getByLabel('Catatan Admin (opsional)').fill('Dua nomor tidak aktif');
    await shot(page, 'admin-blast-result-dialog');
    const before = await balanceOf(e2e.server, ani);
    await submit.click();
    await expectToast(page, 'Hasil blast berhasil disubmit', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    await row('ani').getByText('Selesai').waitFor();
    expect(await row('ani').textContent()).toContain('1 gagal');
    expect(await statValue(page, 'Selesai')).toBe('2');
    expect(await statValue(page, 'Success Rate')).toBe('29%');

    const saved = await blastOnServer(main.id);
    expect(saved).toMatchObject({
      status: 'completed',
      successful_count: 2,
      failed_count: 1,
      no_wa_count: 1,
      refund_points: 2,
      admin_notes: 'Dua nomor tidak aktif',
    });
    expect(await balanceOf(e2e.server, ani)).toBe(before + 2);
  });

  it('re-edits a completed result only after the confirmation, prefilled', async () => {
    await dismissToasts(page);
    await row('ani').getByRole('button', { name: 'Edit Hasil' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText(
        'Apakah Anda yakin ingin mengedit hasil blast ini? Perubahan akan mempengaruhi perhitungan refund poin.',
      )
      .waitFor();
    await shot(page, 'admin-blast-edit-confirm');
    await confirm.getByRole('button', { name: 'Batal' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await dialog().count()).toBe(0);

    await row('ani').getByRole('button', { name: 'Edit Hasil' }).click();
    await confirm.getByRole('button', { name: 'Ya, Edit Hasil' }).click();
    await dialog().getByRole('heading', { name: 'Edit Hasil Blast' }).waitFor();
    expect(await dialog().getByLabel('Berhasil').inputValue()).toBe('2');
    expect(await dialog().getByLabel('Gagal').inputValue()).toBe('1');
    expect(await dialog().getByLabel('Tidak Ada WA').inputValue()).toBe('1');
    expect(await dialog().getByLabel('Catatan Admin (opsional)').inputValue()).toBe(
      'Dua nomor tidak aktif',
    );
    await dialog().getByLabel('Berhasil').fill('3');
    await dialog().getByLabel('Tidak Ada WA').fill('0');
    const before = await balanceOf(e2e.server, ani);
    await dialog().getByRole('button', { name: 'Simpan Hasil' }).click();
    await expectToast(page, 'Hasil blast berhasil disubmit');
    await dialog().waitFor({ state: 'hidden' });
    expect(await blastOnServer(main.id)).toMatchObject({
      successful_count: 3,
      failed_count: 1,
      no_wa_count: 0,
      refund_points: 1,
      // The saved failure stays where it was; only the no-WA number becomes successful.
      number_statuses: { 0: 'success', 1: 'success', 2: 'failed', 3: 'success' },
    });
    // Only the difference of the refund is taken back.
    expect(await balanceOf(e2e.server, ani)).toBe(before - 1);
  });

  it('shows the detail and edits, resets and saves per-number statuses', async () => {
    await dismissToasts(page);
    await row('ani')
      .getByRole('button', { name: /^Detail/ })
      .click();
    await dialog().getByRole('heading', { name: 'Detail Blast Request' }).waitFor();
    const info = (await dialog().locator('[data-blast-info]').textContent()) ?? '';
    expect(info).toContain('ani');
    expect(info).toContain(ani.user.id);
    expect(info).toContain(main.id);
    expect(info).toContain('Selesai');
    expect(await dialog().locator('[data-blast-message]').textContent()).toBe(main.message);
    const result = (await dialog().locator('[data-blast-result]').textContent()) ?? '';
    expect(result).toContain('1 poin dikembalikan');
    expect(result).toContain('Dua nomor tidak aktif');
    const summary = dialog().locator('[data-status-summary]');
    const boxes = async () =>
      Object.fromEntries(
        await Promise.all(
          ['success', 'failed', 'no_wa', 'pending'].map(async (s) => [
            s,
            (await summary.locator(`[data-summary="${s}"] dd`).textContent())?.trim(),
          ]),
        ),
      );
    expect(await boxes()).toEqual({ success: '3', failed: '1', no_wa: '0', pending: '0' });
    expect(await summary.locator('[data-progress]').textContent()).toContain('100%');
    expect(await dialog().locator('[data-number-row]').count()).toBe(4);
    expect(await dialog().locator('[data-number-row="0"]').textContent()).toContain('62812');

    // Saving without any change says so.
    await dialog().getByRole('button', { name: 'Edit Status' }).click();
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Tidak ada perubahan status untuk disimpan');

    // Local edits recount the summary at once; Reset puts the saved statuses back.
    const select = (i: number) => dialog().getByLabel(new RegExp(`^Status nomor ${i} `));
    await select(1).selectOption('no_wa');
    await select(3).selectOption('pending');
    expect(await boxes()).toEqual({ success: '2', failed: '0', no_wa: '1', pending: '1' });
    expect(await summary.locator('[data-processed]').textContent()).toContain('3 dari 4 nomor');
    expect(await summary.locator('[data-progress]').textContent()).toContain('75%');
    await summary.scrollIntoViewIfNeeded();
    await shot(page, 'admin-blast-detail-editing');
    await dialog().getByRole('button', { name: 'Reset' }).click();
    await expectToast(page, 'Status per nomor telah direset ke default');
    expect(await boxes()).toEqual({ success: '3', failed: '1', no_wa: '0', pending: '0' });
    expect(await select(1).inputValue()).toBe('success');

    // Changing a number and changing it back is no change; two real changes are saved.
    await select(2).selectOption('failed');
    await select(2).selectOption('success');
    await select(1).selectOption('no_wa');
    await select(3).selectOption('success');
    // Escape with changes not saved asks first; 'Tetap di sini' keeps them.
    await dismissToasts(page);
    await select(3).focus();
    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Perubahan belum disimpan' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('2 nomor diubah dan belum disimpan');
    await ask.getByRole('button', { name: 'Tetap di sini' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await dialog().isVisible()).toBe(true);
    expect(await select(1).inputValue()).toBe('no_wa');
    const before = await balanceOf(e2e.server, ani);
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Status per nomor berhasil disimpan. 2 nomor diperbarui.', {
      title: 'Berhasil',
    });
    // Leaves edit mode, shows the saved statuses and the new refund.
    await dialog().getByRole('button', { name: 'Edit Status' }).waitFor();
    expect(await boxes()).toEqual({ success: '3', failed: '0', no_wa: '1', pending: '0' });
    const saved = await blastOnServer(main.id);
    expect(saved.number_statuses).toEqual({ 0: 'no_wa', 1: 'success', 2: 'success', 3: 'success' });
    expect(saved).toMatchObject({
      successful_count: 3,
      failed_count: 0,
      no_wa_count: 1,
      refund_points: 1,
    });
    expect(await balanceOf(e2e.server, ani)).toBe(before);
    // Escape closes the toast first (the topmost layer), then the dialog.
    await dismissToasts(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await row('ani').getByText('1 tidak ada WA').waitFor();
  });

  it('rejects a pending blast after the confirmation, refunding every point', async () => {
    await dismissToasts(page);
    const target = row('Diskon dengan gambar');
    await target.getByRole('button', { name: /^Detail/ }).click();
    await dialog().getByRole('img', { name: 'Gambar yang dilampirkan pada blast' }).waitFor();
    await shot(page, 'admin-blast-detail-image');
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    const before = await balanceOf(e2e.server, budi);
    await target.getByRole('button', { name: 'Tolak' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/Semua 3 poin akan dikembalikan ke klien/).waitFor();
    // It names which of the client's blasts: its time and size.
    expect(await confirm.textContent()).toContain(
      `blast request dari budi (${formatDateTime(withImage.created_at)}, 3 nomor)?`,
    );
    await confirm.getByRole('button', { name: 'Tolak' }).click();
    await expectToast(page, 'Blast request berhasil ditolak');
    await target.getByText('Ditolak', { exact: true }).waitFor();
    expect(await target.getByRole('button', { name: 'Input Hasil' }).count()).toBe(0);
    expect(await blastOnServer(withImage.id)).toMatchObject({
      status: 'rejected',
      refund_points: 3,
    });
    expect(await balanceOf(e2e.server, budi)).toBe(before + 3);

    // A rejected blast's statuses can no longer be edited.
    await target.getByRole('button', { name: /^Detail/ }).click();
    await dialog()
      .getByText(/Blast ini ditolak admin/)
      .waitFor();
    expect(await dialog().getByRole('button', { name: 'Edit Status' }).count()).toBe(0);
    // Its numbers were never sent: none of them reads 'Menunggu'.
    const numberRows = dialog().locator('[data-number-row]');
    expect(await numberRows.count()).toBe(3);
    for (const text of await numberRows.allTextContents()) expect(text).toMatch(/Tidak dikirim$/);
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('enters a result over saved per-number statuses, keeping them, on entry and re-edit', async () => {
    await dismissToasts(page);
    const citra = await e2e.server.createClient({ username: 'citra' });
    await setPoints(e2e.server, citra, 50);
    const seven = await createBlast(e2e.server, citra, 'Tujuh nomor', numbers(7, 100));
    await goTo(page, '/blast-results');
    await row('citra')
      .getByRole('button', { name: /^Detail/ })
      .click();
    await dialog().getByRole('button', { name: 'Edit Status' }).click();
    const select = (i: number) => dialog().getByLabel(new RegExp(`^Status nomor ${i} `));
    await select(1).selectOption('success');
    await select(2).selectOption('failed');
    await select(3).selectOption('no_wa');
    await select(4).selectOption('success');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Status per nomor berhasil disimpan. 4 nomor diperbarui.');
    await dialog().getByRole('button', { name: 'Edit Status' }).waitFor();
    await dismissToasts(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });

    // The form starts from the saved statuses; the three numbers still pending count successful.
    await row('citra').getByRole('button', { name: 'Input Hasil' }).click();
    const counts = () =>
      Promise.all(
        ['Berhasil', 'Gagal', 'Tidak Ada WA'].map((l) => dialog().getByLabel(l).inputValue()),
      );
    expect(await counts()).toEqual(['5', '1', '1']);
    const before = await balanceOf(e2e.server, citra);
    await dialog().getByRole('button', { name: 'Submit Hasil' }).click();
    await expectToast(page, 'Hasil blast berhasil disubmit');
    await dialog().waitFor({ state: 'hidden' });
    const S = 'success';
    expect(await blastOnServer(seven.id)).toMatchObject({
      status: 'completed',
      refund_points: 2,
      number_statuses: { 0: S, 1: 'failed', 2: 'no_wa', 3: S, 4: S, 5: S, 6: S },
    });
    expect(await balanceOf(e2e.server, citra)).toBe(before + 2);

    // A re-edit without the failure: only that number changes, and one point is taken back.
    await dismissToasts(page);
    await row('citra').getByRole('button', { name: 'Edit Hasil' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ya, Edit Hasil' }).click();
    expect(await counts()).toEqual(['5', '1', '1']);
    await dialog().getByLabel('Berhasil').fill('6');
    await dialog().getByLabel('Gagal').fill('0');
    await dialog().getByRole('button', { name: 'Simpan Hasil' }).click();
    await expectToast(page, 'Hasil blast berhasil disubmit');
    await dialog().waitFor({ state: 'hidden' });
    expect(await blastOnServer(seven.id)).toMatchObject({
      refund_points: 1,
      number_statuses: { 0: S, 1: S, 2: 'no_wa', 3: S, 4: S, 5: S, 6: S },
    });

    // The client's History Poin calls the point taken back a correction, not a refund.
    for (const viewport of ['desktop', 'phone'] as const) {
      const history = await clientPage(e2e, citra, '/point-history', viewport);
      const newest = history
        .getByRole('table', { name: 'Riwayat transaksi poin' })
        .locator('tbody tr')
        .first();
      await newest.getByText('Koreksi Refund').waitFor();
      const text = await newest.textContent();
      expect(text).toContain(
        'Koreksi hasil blast: refund ditarik kembali 1 poin (kini 0 gagal, 1 tanpa WhatsApp)',
      );
      expect(text).toContain('-1');
      expect(text).not.toMatch(/Refund blast/);
      await shot(history, `client-point-history-correction-${viewport}`);
      await history.context().close();
    }
  });

  it('works at phone width', async () => {
    const phone = await adminPage(e2e, '/blast-results', 'phone');
    await phone.locator('tbody tr').first().waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-blast-results-phone');
    await phone
      .locator('tbody tr', { hasText: 'ani' })
      .getByRole('button', { name: /^Detail/ })
      .click();
    await phone.getByRole('dialog').waitFor();
    await shot(phone, 'admin-blast-detail-phone');
    await phone.getByRole('button', { name: 'Edit Status' }).click();
    await phone.locator('[data-status-summary]').scrollIntoViewIfNeeded();
    await shot(phone, 'admin-blast-detail-phone-numbers');
    await phone.context().close();
  });
});
