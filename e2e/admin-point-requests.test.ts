// Form Poin in Chromium: counters from the server, 15 per page, proof links, approve and reject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  statValue,
} from './helpers.ts';
import { addTiers, adminApi, balanceOf, type Client, requestTopup, TIER } from './seed.ts';

let e2e: E2E;
let page: Page;
let sari: Client;
let joko: Client;
const PROOF = 'https://bukti.contoh.test/transfer-1.jpg';

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/point-requests');
});
afterAll(async () => {
  await e2e?.close();
});

const rows = () => page.locator('tbody tr');

/** Answers the open confirmation with its `label` button and waits for it to close. */
async function confirmWith(label: 'Approve' | 'Reject') {
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: label, exact: true }).click();
  await confirm.waitFor({ state: 'detached' });
}

describe('Form Poin', () => {
  it('shows the empty state with no requests', async () => {
    await page.getByRole('heading', { level: 1, name: 'Form Poin - Request Top-Up' }).waitFor();
    await page.getByText('Belum ada request poin').waitFor();
    expect(await statValue(page, 'Pending')).toBe('0');
  });

  it('lists 16 requests on two pages of 15, newest first, with the server counts', async () => {
    await addTiers(e2e.server, [TIER]);
    sari = await e2e.server.createClient({ username: 'sari' });
    joko = await e2e.server.createClient({ username: 'joko' });
    // Oldest first: joko's 1..15 points, then sari's 100 points with a proof (the newest).
    for (let i = 1; i <= 15; i++) await requestTopup(e2e.server, joko, i);
    await requestTopup(e2e.server, sari, 100, { proof: PROOF });
    await page.reload();
    // The footer comes with the rows (the first row alone may still be the loading one).
    await page.getByText('Menampilkan 1 sampai 15 dari 16 hasil').waitFor();
    expect(await rows().count()).toBe(15);
    expect(await statValue(page, 'Pending')).toBe('16');
    expect(await statValue(page, 'Disetujui')).toBe('0');
    expect(await statValue(page, 'Ditolak')).toBe('0');

    const first = rows().first();
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('sari');
    expect(text).toContain(`ID: ${sari.user.id.slice(0, 8)}`);
    expect(text).toContain('100 poin');
    expect(text).toContain('Rp60.000');
    expect(text).toContain('Pending');
    const proof = first.getByRole('link', { name: /Lihat Bukti/ });
    expect(await proof.getAttribute('href')).toBe(PROOF);
    expect(await proof.getAttribute('target')).toBe('_blank');
    expect(await proof.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await rows().nth(1).textContent()).toContain('Tidak ada');
    await shot(page, 'admin-point-requests-desktop');

    // While page 2 loads, page 1 stays on screen, and its footer with it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const pageTwo = '**/api/admin/point-requests?page=2*';
    await page.route(pageTwo, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Halaman berikutnya' }).click();
    await asking;
    expect(await page.getByRole('status').filter({ hasText: 'Menampilkan' }).textContent()).toBe(
      'Menampilkan 1 sampai 15 dari 16 hasil',
    );
    expect(await rows().count()).toBe(15);
    release();
    await page.getByText('Menampilkan 16 sampai 16 dari 16 hasil').waitFor();
    await page.unroute(pageTwo);
    expect(await rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('1 poin');
    await page.getByRole('button', { name: 'Halaman 1' }).click();
    await page.getByText('Menampilkan 1 sampai 15 dari 16 hasil').waitFor();
  });

  it('asks before approving, with the points and the amount; Batal changes nothing', async () => {
    const first = rows().first();
    await first.getByRole('button', { name: /^Approve/ }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(
      'Setujui request top up 100 poin (Rp60.000) dari sari?',
    );
    await shot(page, 'admin-point-requests-confirm-approve');
    await confirm.getByRole('button', { name: 'Batal' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Radix gives focus back a task after the dialog leaves the page.
    await expect.poll(async () => (await focused(page)).text).toBe('Approve');
    expect(await balanceOf(e2e.server, sari)).toBe(0);
    expect(await statValue(page, 'Pending')).toBe('16');
    expect(await first.getByRole('button', { name: /^Approve/ }).count()).toBe(1);
  });

  it('approves a request: the balance grows and the row is closed', async () => {
    const before = await balanceOf(e2e.server, sari);
    const first = rows().first();
    await first.getByRole('button', { name: /^Approve/ }).click();
    await confirmWith('Approve');
    await expectToast(page, 'Request poin berhasil diapprove', {
      title: 'Berhasil',
      variant: 'success',
    });
    await first.getByText('Telah diapprove').waitFor();
    expect(await first.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    // The decided row has no button left: the keyboard goes on to the next request's.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^Approve/);
    expect(
      await rows()
        .nth(1)
        .evaluate((row) => row.contains(document.activeElement)),
    ).toBe(true);
    expect(await first.textContent()).toContain('Disetujui');
    expect(await statValue(page, 'Pending')).toBe('15');
    expect(await statValue(page, 'Disetujui')).toBe('1');
    expect(await balanceOf(e2e.server, sari)).toBe(before + 100);
  });

  it('rejects a request: no points move', async () => {
    await dismissToasts(page);
    const second = rows().nth(1);
    expect(await second.textContent()).toContain('joko');
    await second.getByRole('button', { name: /^Reject/ }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain(
      'Tolak request top up 15 poin (Rp9.000) dari joko?',
    );
    await confirmWith('Reject');
    await expectToast(page, 'Request poin berhasil direject', { title: 'Berhasil' });
    await second.getByText('Telah ditolak').waitFor();
    expect(await statValue(page, 'Ditolak')).toBe('1');
    expect(await statValue(page, 'Pending')).toBe('14');
    expect(await balanceOf(e2e.server, joko)).toBe(0);
    const list = await adminApi(e2e.server, 'GET', '/api/admin/point-requests?page=1&page_size=2');
    expect(list.items.map((r: any) => r.status)).toEqual(['approved', 'rejected']);
    await shot(page, 'admin-point-requests-decided');
  });

  it('says why when a request was already decided elsewhere', async () => {
    await dismissToasts(page);
    const third = rows().nth(2);
    const pending = await adminApi(
      e2e.server,
      'GET',
      '/api/admin/point-requests?page=1&page_size=3',
    );
    // Another admin tab approves it first.
    await adminApi(e2e.server, 'POST', `/api/admin/point-requests/${pending.items[2].id}/approve`);
    await third.getByRole('button', { name: /^Reject/ }).click();
    await confirmWith('Reject');
    const failure = await expectToast(page, 'Gagal reject request poin', {
      title: 'Error',
      variant: 'destructive',
    });
    expect((await failure.textContent())!.length).toBeGreaterThan(
      'Gagal reject request poin'.length,
    );
    await third.getByText('Telah diapprove').waitFor();
  });

  it('says what failed and why when the server cannot be reached', async () => {
    await dismissToasts(page);
    const row = rows().nth(3);
    let listTries = 0;
    await page.route('**/api/**', (route) => {
      if (route.request().url().includes('/api/admin/point-requests?')) listTries++;
      return route.abort('connectionrefused');
    });
    await row.getByRole('button', { name: /^Approve/ }).click();
    await confirmWith('Approve');
    const text = 'Gagal approve request poin: server tidak dapat dihubungi. Periksa koneksi Anda.';
    await expectToast(page, text, { title: 'Error', variant: 'destructive' });
    expect(await row.getByRole('button', { name: /^Approve/ }).isEnabled()).toBe(true);
    await shot(page, 'admin-point-requests-offline');
    // The list's refresh after the failure fails too (three tries): its load toast must not
    // replace the one saying that the approval failed.
    await expect.poll(() => listTries, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await page.waitForTimeout(500);
    await expectToast(page, text);
    await page.unroute('**/api/**');
    await row.getByText('Pending').waitFor();
  });

  it('works at phone width', async () => {
    const phone = await adminPage(e2e, '/point-requests', 'phone');
    await phone.locator('tbody tr').first().waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'admin-point-requests-phone');
    await phone
      .getByRole('button', { name: /^Reject/ })
      .first()
      .click();
    await phone.getByRole('alertdialog').waitFor();
    await shot(phone, 'admin-point-requests-confirm-phone');
    await phone.getByRole('alertdialog').getByRole('button', { name: 'Batal' }).click();
    await phone.context().close();
  });
});
