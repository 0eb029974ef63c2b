// Akun Klien in Chromium: stats, 5 per page, create, edit, password, delete, every validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPage,
  columnTexts,
  dialogFocus,
  dismissToasts,
  type E2E,
  expectNoSidewaysScroll,
  expectToast,
  focused,
  type Page,
  shot,
  stackedCard,
  startE2E,
  statValue,
} from './helpers.ts';
import { adminApi, type Client } from './seed.ts';

let e2e: E2E;
let page: Page;
const clients: Client[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  page = await adminPage(e2e, '/users');
});
afterAll(async () => {
  await e2e?.close();
});

/** Seven clients, created oldest first: the list shows the newest first, 5 per page. */
async function seed() {
  for (let i = 1; i <= 7; i++) {
    clients.push(await e2e.server.createClient({ username: `klien-${i}` }));
  }
  for (const [i, points] of [10, 20, 30, 0, 0, 0, 7].entries()) {
    const c = clients[i]!;
    await adminApi(e2e.server, 'PUT', `/api/admin/users/${c.user.id}`, {
      username: c.user.username,
      email: c.user.email,
      points,
      is_active: i !== 3,
    });
  }
}

const dialog = () => page.getByRole('dialog');
const row = (name: string) => page.locator('tbody tr', { hasText: name });
/**
 * A refused submit puts the cursor in the form's first wrong field, and again in a timer of its
 * own (react-hook-form's `setTimeout(_focusError)`, set before the messages show): text typed
 * before that timer ran (as Playwright can, within a millisecond) landed in that field. One turn
 * of the page's timers lets it run first.
 */
async function cursorIn(label: string) {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
  const field = dialog().getByLabel(label, { exact: true });
  expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
}

describe('Akun Klien', () => {
  it('shows the empty state when there are no clients', async () => {
    await page.getByRole('heading', { level: 1, name: 'Manajemen Akun Klien' }).waitFor();
    await page.getByText('Belum ada klien terdaftar').waitFor();
    expect(await statValue(page, 'Total Klien')).toBe('0');
    expect(await statValue(page, 'Rata-rata Poin')).toBe('0');
    await shot(page, 'admin-users-empty');
  });

  it('shows the server stats and pages of 5', async () => {
    await seed();
    await page.reload();
    await row('klien-7').waitFor();
    expect(await statValue(page, 'Total Klien')).toBe('7');
    expect(await statValue(page, 'Klien Aktif')).toBe('6');
    expect(await statValue(page, 'Total Poin')).toBe('67');
    expect(await statValue(page, 'Rata-rata Poin')).toBe('10'); // 67 / 7 = 9.57, rounded
    expect(await columnTexts(page, 2)).toEqual([6, 5, 4, 3, 2].map((i) => clients[i]!.user.email));
    expect(await row('klien-4').textContent()).toContain('Nonaktif');
    expect(await row('klien-7').textContent()).toContain('7 poin');
    await page.getByText('Menampilkan 1 sampai 5 dari 7 hasil').waitFor();
    await shot(page, 'admin-users-desktop');

    await page.getByRole('button', { name: 'Halaman 2' }).click();
    await page.getByText('Menampilkan 6 sampai 7 dari 7 hasil').waitFor();
    await row('klien-1').waitFor();
    expect(await columnTexts(page, 2)).toEqual([clients[1]!.user.email, clients[0]!.user.email]);
    expect(await page.getByRole('button', { name: 'Halaman 2' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByRole('button', { name: 'Halaman sebelumnya' }).click();
    await row('klien-7').waitFor();
  });

  it('creates a client, with the form checks first', async () => {
    await page.getByRole('button', { name: 'Tambah Klien Baru' }).click();
    await dialog().getByRole('heading', { name: 'Tambah Klien Baru' }).waitFor();
    // Focus starts inside the dialog.
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(
      true,
    );
    await dialog().getByRole('button', { name: 'Tambah Klien' }).click();
    await dialog().getByText('Username harus diisi').waitFor();
    await dialog().getByText('Email harus diisi').waitFor();
    await dialog().getByText('Password harus diisi').waitFor();
    await cursorIn('Username');
    await dialog().getByLabel('Email').fill('budi');
    await dialog().getByLabel('Password', { exact: true }).fill('12345');
    await dialog().getByRole('button', { name: 'Tambah Klien' }).click();
    await dialog().getByText('Format email tidak valid').waitFor();
    await dialog().getByText('Password minimal 6 karakter').waitFor();
    await cursorIn('Username');

    await dialog().getByLabel('Username').fill('budi');
    // Pasted with spaces around it: the address is taken without them.
    await dialog().getByLabel('Email').fill('  budi@contoh.test ');
    const password = dialog().getByLabel('Password', { exact: true });
    await password.fill('rahasia-budi');
    expect(await password.getAttribute('type')).toBe('password');
    await dialog().getByRole('button', { name: 'Tampilkan password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await shot(page, 'admin-users-create-dialog');
    await dialog().getByRole('button', { name: 'Tambah Klien' }).click();
    await expectToast(page, 'Klien baru berhasil ditambahkan', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    await row('budi').waitFor();
    expect(await statValue(page, 'Total Klien')).toBe('8');

    const list = await adminApi(e2e.server, 'GET', '/api/admin/users?page=1&page_size=100');
    const budi = list.items.find((u: any) => u.email === 'budi@contoh.test');
    expect(budi).toMatchObject({ username: 'budi', role: 'client', points: 0, is_active: true });
    // The new account signs in with the password typed.
    expect((await e2e.server.login('budi@contoh.test', 'rahasia-budi')).user.username).toBe('budi');

    // A second account with the same email: the server's reason is shown.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Tambah Klien Baru' }).click();
    await dialog().getByLabel('Username').fill('budi2');
    await dialog().getByLabel('Email').fill('budi@contoh.test');
    await dialog().getByLabel('Password', { exact: true }).fill('rahasia-budi');
    await dialog().getByRole('button', { name: 'Tambah Klien' }).click();
    const failure = await expectToast(page, 'Email', { title: 'Error', variant: 'destructive' });
    expect(await failure.textContent()).not.toContain('Gagal membuat user');
    await dialog().getByRole('button', { name: 'Batal' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('edits a client: username, email, points (non-numbers become 0) and status', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit klien budi' }).click();
    await dialog().getByRole('heading', { name: 'Edit Klien' }).waitFor();
    expect(await dialog().getByLabel('Username').inputValue()).toBe('budi');
    expect(await dialog().getByLabel('Email').inputValue()).toBe('budi@contoh.test');
    expect(await dialog().getByLabel('Poin').inputValue()).toBe('0');
    expect(
      await dialog().getByRole('switch', { name: 'Akun Aktif' }).getAttribute('aria-checked'),
    ).toBe('true');
    await dialog().getByLabel('Username').fill('');
    await dialog().getByLabel('Poin').fill('-5');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await dialog().getByText('Username harus diisi').waitFor();
    await dialog().getByText('Poin tidak boleh negatif').waitFor();
    await cursorIn('Username');
    await shot(page, 'admin-users-edit-dialog');

    await dialog().getByLabel('Username').fill('budi santoso');
    await dialog().getByLabel('Email').fill('budi.s@contoh.test');
    await dialog().getByLabel('Poin').fill('125');
    await dialog().getByRole('switch', { name: 'Akun Aktif' }).click();
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Data klien berhasil diperbarui', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    await row('budi santoso').getByText('125 poin').waitFor();
    expect(await row('budi santoso').textContent()).toContain('Nonaktif');

    let list = await adminApi(e2e.server, 'GET', '/api/admin/users?page=1&page_size=100');
    let budi = list.items.find((u: any) => u.username === 'budi santoso');
    expect(budi).toMatchObject({ email: 'budi.s@contoh.test', points: 125, is_active: false });

    // Typing something that is not a number in the points field saves 0.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit klien budi santoso' }).click();
    const points = dialog().getByLabel('Poin');
    await points.fill('');
    await points.pressSequentially('abc');
    await dialog().getByRole('button', { name: 'Simpan Perubahan' }).click();
    await expectToast(page, 'Data klien berhasil diperbarui');
    list = await adminApi(e2e.server, 'GET', '/api/admin/users?page=1&page_size=100');
    budi = list.items.find((u: any) => u.username === 'budi santoso');
    expect(budi.points).toBe(0);

    // Batal closes without saving.
    await page.getByRole('button', { name: 'Edit klien budi santoso' }).click();
    await dialog().getByLabel('Username').fill('tidak disimpan');
    await dialog().getByRole('button', { name: 'Batal' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await row('budi santoso').waitFor();
  });

  it('changes a client password', async () => {
    await dismissToasts(page);
    const target = clients[6]!;
    await page.getByRole('button', { name: 'Ubah password klien-7' }).click();
    await dialog().getByRole('heading', { name: 'Ubah Password Klien' }).waitFor();
    expect(await dialog().locator('[data-password-user]').textContent()).toContain('klien-7');
    expect(await dialog().locator('[data-password-user]').textContent()).toContain(
      target.user.email,
    );
    await dialog()
      .getByText('Minimum 6 karakter. Password akan langsung aktif setelah disimpan.')
      .waitFor();
    await dialog().getByRole('button', { name: 'Simpan Password' }).click();
    await dialog().getByText('Password harus diisi').waitFor();
    await dialog().getByLabel('Password Baru').fill('12345');
    await dialog().getByRole('button', { name: 'Simpan Password' }).click();
    await dialog().getByText('Password minimal 6 karakter').waitFor();
    const field = dialog().getByLabel('Password Baru');
    await field.fill('sandi-baru-77');
    await dialog().getByRole('button', { name: 'Tampilkan password' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    await shot(page, 'admin-users-password-dialog');
    await dialog().getByRole('button', { name: 'Simpan Password' }).click();
    await expectToast(page, 'Password klien berhasil diperbarui', { title: 'Berhasil' });
    await dialog().waitFor({ state: 'hidden' });
    expect((await e2e.server.login(target.user.email, 'sandi-baru-77')).user.id).toBe(
      target.user.id,
    );
    const old = await e2e.server.api('POST', '/api/auth/login', {
      body: { email: target.user.email, password: target.password },
    });
    expect(old.status).toBe(401);

    // Opening it again starts with an empty field.
    await page.getByRole('button', { name: 'Ubah password klien-7' }).click();
    expect(await dialog().getByLabel('Password Baru').inputValue()).toBe('');
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  it('lifts the sign-in wait of a client who typed wrong passwords', async () => {
    await dismissToasts(page);
    const target = clients[5]!;
    const signInAs = (password: string) =>
      e2e.server.api('POST', '/api/auth/login', { body: { email: target.user.email, password } });
    for (let i = 0; i < e2e.server.config.login.maxPerPair; i++) await signInAs(`salah-${i}`);
    expect((await signInAs(target.password)).status).toBe(429);
    await page.getByRole('button', { name: 'Ubah password klien-6' }).click();
    await dialog().getByRole('button', { name: 'Buka Blokir Masuk' }).click();
    await expectToast(page, 'Blokir masuk klien-6 telah dibuka', { title: 'Berhasil' });
    await shot(page, 'admin-users-lift-block');
    expect((await signInAs(target.password)).status).toBe(200);
    await dialog().getByRole('button', { name: 'Batal' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('adds another super administrator, who is not listed among the clients', async () => {
    await dismissToasts(page);
    const total = await statValue(page, 'Total Klien');
    await page.getByRole('button', { name: 'Tambah Administrator' }).click();
    await dialog().getByRole('heading', { name: 'Tambah Super Administrator' }).waitFor();
    await dialog().getByLabel('Username').fill('Admin');
    await dialog().getByLabel('Email').fill('admin.dua@contoh.test');
    await dialog().getByLabel('Password', { exact: true }).fill('rahasia-admin-2');
    await dialog().getByRole('button', { name: 'Tambah Administrator' }).click();
    // 'admin' is the first administrator's name, in any letter case.
    await expectToast(page, 'Username sudah digunakan', { variant: 'destructive' });
    await dismissToasts(page);
    await dialog().getByLabel('Username').fill('admin-dua');
    await shot(page, 'admin-users-create-admin-dialog');
    await dialog().getByRole('button', { name: 'Tambah Administrator' }).click();
    await expectToast(page, 'Super administrator admin-dua berhasil ditambahkan', {
      title: 'Berhasil',
    });
    await dialog().waitFor({ state: 'hidden' });
    expect(await statValue(page, 'Total Klien')).toBe(total);
    const session = await e2e.server.login('admin.dua@contoh.test', 'rahasia-admin-2');
    expect(session.user).toMatchObject({ username: 'admin-dua', role: 'super_admin' });
  });

  it('keeps Tab inside an open dialog and gives focus back to the button that opened it', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Edit klien klien-7' }).click();
    await dialogFocus(page);
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).label).toBe('Edit klien klien-7');

    await page.getByRole('button', { name: 'Ubah password klien-7' }).click();
    await dialog().getByRole('button', { name: 'Batal' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).label).toBe('Ubah password klien-7');

    await page.getByRole('button', { name: 'Hapus klien klien-7' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Batal' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).label).toBe('Hapus klien klien-7');

    await page.getByRole('button', { name: 'Tambah Klien Baru' }).click();
    await dialogFocus(page);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focused(page)).text).toBe('Tambah Klien Baru');
  });

  it('deletes a client after the confirmation', async () => {
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Hapus klien klien-7' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText(
        'Apakah Anda yakin ingin menghapus klien klien-7? Semua data termasuk riwayat blast dan transaksi akan dihapus permanen.',
      )
      .waitFor();
    // Deletion is permanent: the dialog names the account by username and email.
    const named = await confirm.locator('[data-delete-user]').innerText();
    expect(named).toMatch(/^Username:\s*klien-7\s*Email:\s*(\S+)$/);
    expect(named.split(/\s+/).at(-1)).toBe(clients[6]!.user.email);
    await shot(page, 'admin-users-delete-confirm');
    await confirm.getByRole('button', { name: 'Batal' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row('klien-7').waitFor();

    await page.getByRole('button', { name: 'Hapus klien klien-7' }).click();
    await confirm.getByRole('button', { name: 'Hapus' }).click();
    await expectToast(page, 'Klien klien-7 berhasil dihapus', { title: 'Berhasil' });
    await row('klien-7').waitFor({ state: 'detached' });
    expect(await statValue(page, 'Total Klien')).toBe('7');
    const list = await adminApi(e2e.server, 'GET', '/api/admin/users?page=1&page_size=100');
    expect(list.items.some((u: any) => u.id === clients[6]!.user.id)).toBe(false);
  });

  it('works at phone width and by keyboard', async () => {
    const phone = await adminPage(e2e, '/users', 'phone');
    const card = phone.locator('tbody tr', { hasText: 'klien-6' });
    await card.waitFor();
    await expectNoSidewaysScroll(phone);
    // Each row is a card whose lines carry the column names; the header row is hidden.
    expect(await phone.locator('thead').isVisible()).toBe(false);
    expect(await stackedCard(card)).toEqual({
      labels: ['Username', 'Email', 'Poin Tersedia', 'Status', 'Tanggal Daftar', 'Aksi'],
      fits: true,
    });
    // At desktop width the same list is a plain table.
    expect((await stackedCard(row('klien-6'))).labels).toEqual([]);
    expect(await page.locator('thead').isVisible()).toBe(true);
    await shot(phone, 'admin-users-phone');
    await phone.getByRole('button', { name: 'Tambah Klien Baru' }).focus();
    await phone.keyboard.press('Enter');
    await dialogFocus(phone);
    await phone.keyboard.type('kiki');
    await phone.keyboard.press('Tab');
    await phone.keyboard.type('kiki@contoh.test');
    await phone.keyboard.press('Tab');
    await phone.keyboard.type('kiki-rahasia');
    await shot(phone, 'admin-users-create-phone');
    await phone.keyboard.press('Enter');
    await expectToast(phone, 'Klien baru berhasil ditambahkan');
    await phone.context().close();
  });
});
