// Ubah Password in both shells: the form's checks, the server's answer under its field, and a
// change that keeps this session while the account's other sessions end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  screenshot,
  shellTitle,
  signIn,
  startE2E,
  toast,
  type E2E,
  type Page,
} from './helpers.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

async function openFromMenu(page: Page, nav: string) {
  await page
    .getByRole('navigation', { name: nav })
    .getByRole('link', { name: 'Ubah Password' })
    .click();
  await page.waitForURL('**/password');
  await expect.poll(() => shellTitle(page)).toBe('Ubah Password');
  await page.getByRole('heading', { level: 1, name: 'Ubah Password' }).waitFor();
}

async function fill(page: Page, current: string, next: string, confirm = next) {
  await page.getByLabel('Password Saat Ini').fill(current);
  await page.getByLabel('Password Baru', { exact: true }).fill(next);
  await page.getByLabel('Konfirmasi Password Baru').fill(confirm);
  await page.getByRole('button', { name: 'Simpan Password' }).click();
}

describe('Ubah Password', () => {
  it('a client changes their password; this session stays, another device is signed out', async () => {
    const client = await e2e.server.createClient({ username: 'ganti', password: 'lama-rahasia' });
    const elsewhere = (await e2e.server.login(client.user.email, 'lama-rahasia')).access_token;
    const page = await e2e.open('/login', 'desktop');
    await signIn(page, client.user.email, 'lama-rahasia');
    await openFromMenu(page, 'Menu klien');

    await fill(page, 'lama-rahasia', 'baru-rahasia', 'baru-rahasiaX');
    await page.getByText('Konfirmasi password tidak sama dengan password baru').waitFor();
    await fill(page, 'bukan-ini', 'baru-rahasia');
    await page.getByText('Password saat ini salah').waitFor();
    const current = page.getByLabel('Password Saat Ini');
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => current.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'change-password-error-desktop');

    await fill(page, 'lama-rahasia', 'baru-rahasia');
    await toast(page).getByText('Password berhasil diubah').waitFor();
    expect(await page.getByLabel('Password Saat Ini').inputValue()).toBe('');
    // This session goes on with its new token; the other device's token is refused.
    await page.reload();
    await expect.poll(() => shellTitle(page)).toBe('Ubah Password');
    expect((await e2e.server.api('GET', '/api/auth/me', { token: elsewhere })).status).toBe(401);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect((await e2e.server.api('GET', '/api/auth/me', { token })).status).toBe(200);
    const old = await e2e.server.api('POST', '/api/auth/login', {
      body: { email: client.user.email, password: 'lama-rahasia' },
    });
    expect(old.status).toBe(401);
    expect((await e2e.server.login(client.user.email, 'baru-rahasia')).user.id).toBe(
      client.user.id,
    );
    await page.context().close();
  });

  it('the admin has the same screen, at desktop and phone width', async () => {
    const created = await e2e.server.api('POST', '/api/admin/users', {
      token: e2e.server.adminToken,
      body: {
        username: 'admin-ganti',
        email: 'admin-ganti@sebar.test',
        password: 'lama-rahasia',
        role: 'super_admin',
      },
    });
    expect(created.status).toBe(201);
    const page = await e2e.open('/login', 'desktop');
    await signIn(page, 'admin-ganti@sebar.test', 'lama-rahasia');
    await openFromMenu(page, 'Menu admin');
    await screenshot(page, 'change-password-admin-desktop');
    await fill(page, 'lama-rahasia', 'baru-rahasia');
    await toast(page).getByText('Password berhasil diubah').waitFor();
    expect((await e2e.server.login('admin-ganti@sebar.test', 'baru-rahasia')).user.role).toBe(
      'super_admin',
    );
    await page.context().close();

    const phone = await e2e.open('/login', 'phone');
    await signIn(phone, ADMIN.email, ADMIN.password);
    await phone.getByRole('button', { name: 'Buka menu' }).click();
    await openFromMenu(phone, 'Menu admin');
    const widths = await phone.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await screenshot(phone, 'change-password-admin-phone');
    await phone.context().close();
  });
});
