// The opt-out list in Chromium: a customer answers STOP through the local Cloud API and shows up
// on the admin's 'Berhenti Berlangganan' screen; the admin adds a number by hand (with the
// form's checks); a client blasts to both plus others, pays only for the rest and is told
// 'N nomor telah berhenti berlangganan'; the admin takes a number off the list again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '#common/delivery.ts';
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import {
  adminPage,
  clientPage,
  type E2E,
  expectNoSidewaysScroll,
  expectShellBalance,
  expectStackedInTabOrder,
  expectToast,
  goTo,
  type Page,
  shot,
  startE2E,
  statValue,
} from './helpers.ts';
import { adminApi, balanceOf, setPoints } from './seed.ts';

const ANSWERED_STOP = '6281255550001';
const BY_ADMIN = '081255550002';

let e2e: E2E;
let whatsapp: LocalCloudApi;
let admin: Page;

beforeAll(async () => {
  e2e = await startE2E();
  whatsapp = await startLocalCloudApi({
    webhookUrl: `${e2e.url}${WEBHOOK_PATH}`,
    recipientGapMs: 0,
  });
  // The webhook is signed with the Cloud API's app secret; the blasts below stay manual.
  await adminApi(e2e.server, 'PUT', '/api/admin/delivery', {
    mode: 'manual',
    cloud_api: cloudApiSettingsOf(whatsapp),
  });
  admin = await adminPage(e2e, '/opt-outs');
});
afterAll(async () => {
  await whatsapp?.close();
  await e2e?.close();
});

const row = (text: string) => admin.locator('tbody tr', { hasText: text });

describe('Berhenti Berlangganan', () => {
  it('starts empty, then shows a customer who answered STOP', async () => {
    await admin.getByRole('heading', { level: 1, name: 'Daftar Berhenti Berlangganan' }).waitFor();
    await admin.getByText('Belum ada nomor yang berhenti berlangganan').waitFor();
    whatsapp.receive(ANSWERED_STOP, { text: 'Stop' });
    await whatsapp.settled();
    await expect
      .poll(async () => (await adminApi(e2e.server, 'GET', '/api/admin/opt-outs')).total)
      .toBe(1);
    await admin.reload();
    await row(ANSWERED_STOP).waitFor();
    expect(await row(ANSWERED_STOP).textContent()).toContain('Pesan WhatsApp');
    expect(await row(ANSWERED_STOP).textContent()).toContain('Mengirim “Stop”');
  });

  it('adds a number through the inline form, with its checks', async () => {
    await admin.getByRole('button', { name: 'Tambah Nomor' }).click();
    const form = admin.getByRole('form', { name: 'Tambah nomor berhenti berlangganan' });
    await form.waitFor();
    expect(await admin.evaluate(() => document.activeElement?.id)).toBe('opt-out-number');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Nomor harus diisi').waitFor();
    await form.getByLabel('Nomor WhatsApp').fill('12345');
    await form.getByRole('button', { name: 'Simpan' }).click();
    await form.getByText('Nomor tidak valid. Mohon perbaiki format nomor').waitFor();
    // Escape is Batal: the form closes, the keyboard is back on its button, nothing is added.
    await admin.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    expect(await admin.evaluate(() => document.activeElement?.textContent)).toContain(
      'Tambah Nomor',
    );
    await admin.getByRole('button', { name: 'Tambah Nomor' }).click();
    await form.getByLabel('Nomor WhatsApp').fill(BY_ADMIN);
    await form.getByRole('button', { name: 'Simpan' }).click();
    await expectToast(admin, 'Nomor ditambahkan ke daftar berhenti berlangganan');
    await form.waitFor({ state: 'hidden' });
    await row('6281255550002').waitFor();
    expect(await row('6281255550002').textContent()).toContain('Ditambahkan oleh admin');
    expect(await statValue(admin, 'Total Nomor')).toBe('2');
    await shot(admin, 'admin-opt-outs');
  });

  it("leaves the listed numbers out of a client's blast, which is told how many", async () => {
    const client = await e2e.server.createClient({ username: 'toko-berhenti' });
    await setPoints(e2e.server, client, 10);
    const page = await clientPage(e2e, client, '/blast-form');
    await expectShellBalance(page, 10);
    await page
      .getByLabel('Nomor WhatsApp Tujuan')
      .fill(['0812 5555 0001', BY_ADMIN, '081255550003', '081255550004'].join('\n'));
    await page.getByLabel('Pesan').fill('Promo akhir pekan');
    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    const toast = await expectToast(page, '2 nomor telah berhenti berlangganan');
    expect(await toast.textContent()).toContain('Blast request berhasil dibuat untuk 2 nomor');
    await shot(page, 'client-blast-opt-out-notice');
    await expectShellBalance(page, 8);
    expect(await balanceOf(e2e.server, client)).toBe(8);
    // The blast's detail says it too, beside the numbers it was sent to.
    await page.getByRole('button', { name: 'Detail' }).first().click();
    const detail = page.getByRole('dialog');
    await detail.getByText('2 nomor telah berhenti berlangganan').waitFor();
    expect(await detail.textContent()).not.toContain('6281255550001');
    await shot(page, 'client-blast-detail-opt-outs');
    await page.context().close();
  });

  it('takes a number off the list after a confirmation, and finds numbers by search', async () => {
    await goTo(admin, '/opt-outs');
    await admin.getByRole('searchbox', { name: 'Cari nomor' }).fill('0812 5555 0002');
    await expect.poll(() => admin.locator('tbody tr').count()).toBe(1);
    await row('6281255550002').waitFor();
    admin.once('dialog', (dialog) => void dialog.accept());
    await admin.getByRole('button', { name: 'Hapus nomor 6281255550002 dari daftar' }).click();
    await expectToast(admin, 'Nomor dihapus dari daftar berhenti berlangganan');
    await admin.getByText('Tidak ada nomor yang cocok').waitFor();
    await admin.getByRole('searchbox', { name: 'Cari nomor' }).fill('');
    await row(ANSWERED_STOP).waitFor();
    // The whole list was read before the removal: it shows until its refetch answers.
    await row('6281255550002').waitFor({ state: 'detached' });
    await expect.poll(() => statValue(admin, 'Total Nomor')).toBe('1');
  });

  it('fits a phone, each number a card', async () => {
    const phone = await adminPage(e2e, '/opt-outs', 'phone');
    await phone.locator('tbody tr', { hasText: ANSWERED_STOP }).waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-opt-outs-phone');
    // The open form's buttons stack in the order the Tab key takes them: Simpan, then Batal.
    await phone.getByRole('button', { name: 'Tambah Nomor' }).click();
    const form = phone.getByRole('form');
    await expectStackedInTabOrder(
      phone,
      form.getByRole('button', { name: 'Simpan' }),
      form.getByRole('button', { name: 'Batal' }),
      'Batal',
    );
    await phone.context().close();
  });
});
