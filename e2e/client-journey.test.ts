// A client's whole journey in Chromium against the real server, the admin acting through the
// API: top up, approval, a blast, a result with failures, the refund in History Poin with the
// right running balance, and the balance in the header right at every step.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type E2E,
  expectShellBalance,
  expectToast,
  patientPolls,
  signIn,
  startE2E,
} from './helpers.ts';
import {
  addTiers,
  adminApi,
  balanceOf,
  clientApi,
  numbers,
  saveSettings,
  submitResult,
} from './seed.ts';

let e2e: E2E;

beforeAll(async () => {
  patientPolls();
  e2e = await startE2E();
  await addTiers(e2e.server);
  await saveSettings(e2e.server);
});
afterAll(async () => {
  await e2e?.close();
});

it('top up, approval, blast, result with failures, refund in History Poin', async () => {
  const client = await e2e.server.createClient({ username: 'sari' });
  const page = await e2e.open('/login');
  await signIn(page, client.user.email, client.password);
  await expectShellBalance(page, 0);
  const nav = page.getByRole('navigation', { name: 'Menu klien' });

  // 1. Top up 100 points from the Basic tier.
  await nav.getByRole('link', { name: 'Top Up Poin' }).click();
  await page
    .getByRole('list', { name: 'Tier harga' })
    .getByRole('button', { name: /Basic/ })
    .click();
  await page.getByLabel('Jumlah Poin').fill('100');
  expect(await page.getByLabel('Total Harga').inputValue()).toBe('Rp60.000');
  await page.getByLabel('URL Bukti Transfer (Opsional)').fill('https://i.imgur.com/sari.png');
  await page.getByRole('button', { name: 'Buat Request Top-Up' }).click();
  await expectToast(page, 'Request top-up 100 poin berhasil dibuat. Menunggu approval admin.', {
    title: 'Request Berhasil',
  });
  await expectShellBalance(page, 0);

  await nav.getByRole('link', { name: 'Riwayat Top Up' }).click();
  const requests = page.getByRole('table', { name: 'Riwayat request top-up' });
  await requests.locator('[data-request-status]').first().waitFor();
  expect(await requests.locator('[data-request-status]').first().textContent()).toBe('Menunggu');

  // 2. The admin approves; the dashboard's Refresh brings the balance in.
  const pending = await adminApi(e2e.server, 'GET', '/api/admin/point-requests?status=pending');
  expect(pending.items).toHaveLength(1);
  await adminApi(e2e.server, 'POST', `/api/admin/point-requests/${pending.items[0].id}/approve`);
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expectShellBalance(page, 100);
  await nav.getByRole('link', { name: 'Riwayat Top Up' }).click();
  await expect
    .poll(() => requests.locator('[data-request-status]').first().textContent())
    .toBe('Disetujui');

  // 3. A blast to 9 numbers (one entered twice): 9 points.
  await nav.getByRole('link', { name: 'Form Blast' }).click();
  await page.getByLabel('Nomor WhatsApp Tujuan').fill([...numbers(9), numbers(1)[0]].join('\n'));
  await page.getByLabel('Pesan').fill('Halo dari Sari! Promo minggu ini.');
  expect(await page.locator('[data-numbers-notes]').textContent()).toContain(
    '1 nomor duplikat dihapus',
  );
  await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
  await page.waitForURL('**/blast-results');
  await expectToast(page, 'Blast request berhasil dibuat untuk 9 nomor');
  await expectShellBalance(page, 91);
  const results = page.getByRole('table', { name: 'Daftar blast request' });
  await results.locator('[data-blast-status]').first().waitFor();
  expect(await results.locator('[data-blast-status]').first().textContent()).toBe('Menunggu');

  // 4. The admin enters the result: 5 sent, 3 failed, 1 without WhatsApp: 4 points back.
  const blasts = await clientApi(e2e.server, client, 'GET', '/api/client/blast-requests');
  await submitResult(e2e.server, blasts.items[0].id, {
    successful_count: 5,
    failed_count: 3,
    no_wa_count: 1,
  });

  // 5. History Poin shows the refund with the right running balance; the header follows.
  await nav.getByRole('link', { name: 'History Poin' }).click();
  const ledger = page.getByRole('table', { name: 'Riwayat transaksi poin' });
  await ledger.locator('tbody tr').nth(2).waitFor();
  const rows = await ledger.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = tr.querySelectorAll('td');
      const description = tr.querySelector('[data-transaction-description]')!.textContent;
      return [
        cells[1]!.textContent,
        description,
        cells[3]!.textContent,
        cells[4]!.textContent,
      ].join(' | ');
    }),
  );
  expect(rows).toEqual([
    'Refund | Refund blast: 3 gagal, 1 tanpa WhatsApp | +4 | 95',
    'Penggunaan | Blast WhatsApp ke 9 nomor | -9 | 91',
    'Top Up | Top up 100 poin disetujui admin | +100 | 100',
  ]);
  // The blast's two entries open it; the top-up has no blast.
  expect(await ledger.getByRole('button', { name: 'Lihat blast' }).count()).toBe(2);
  expect(await page.locator('[data-history-balance]').textContent()).toBe('95 poin');
  await expectShellBalance(page, 95);
  expect(await page.getByRole('region', { name: 'Ringkasan poin' }).textContent()).toBe(
    'Total Top Up100Total Terpakai9Total Refund4Jumlah Transaksi3',
  );

  // 6. Hasil Blast shows the result and each number's status.
  await nav.getByRole('link', { name: 'Hasil Blast' }).click();
  await expect
    .poll(() => results.locator('[data-blast-result]').first().textContent())
    .toBe('5 berhasil3 gagal1 no WA');
  await results.getByRole('button', { name: /^Detail/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Detail Blast Request' });
  await dialog.locator('[data-number-list]').waitFor();
  expect(await dialog.locator('[data-number-status]').allTextContents()).toEqual([
    ...Array(5).fill('Berhasil'),
    ...Array(3).fill('Gagal'),
    'No WA',
  ]);
  expect(await dialog.locator('[data-progress-summary]').textContent()).toBe(
    '5Berhasil3Gagal1No WA0Pending',
  );
  expect(await dialog.getByRole('button', { name: 'Batalkan Blast' }).count()).toBe(0);
  await dialog.getByRole('button', { name: 'Tutup', exact: true }).last().click();

  // 7. The dashboard: 9 used today, 4 refunded.
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await expect
    .poll(() => page.locator('[data-today-activity]').textContent())
    .toBe('Aktivitas Hari IniPoin terpakai-9Poin refund+4Blast dibuat1');
  expect(await page.locator('[data-dashboard-points]').textContent()).toBe('95');
  await expectShellBalance(page, 95);
  expect(await balanceOf(e2e.server, client)).toBe(95);
  await page.context().close();
});
