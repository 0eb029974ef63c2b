// The sign-in page and the session in real Chromium against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, screenshot, shellTitle, signIn, startE2E, toast, type E2E } from './helpers.ts';

const EXPIRED = 'Sesi Anda telah berakhir. Silakan masuk kembali.';
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('/login', () => {
  it('shows the form, downloads neither shell, and requires both fields', async () => {
    const requested: string[] = [];
    const page = await e2e.open('/login', 'desktop');
    page.on('request', (request) => requested.push(request.url()));
    await page.reload();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();

    const email = page.getByLabel('Email');
    expect(await email.getAttribute('type')).toBe('email');
    expect(await email.getAttribute('required')).not.toBeNull();
    expect(
      await page.getByLabel('Password', { exact: true }).getAttribute('required'),
    ).not.toBeNull();
    const body = await page.locator('body').innerText();
    expect(body).toContain('WhatsApp blast profesional');
    expect(body).toContain('2025');
    expect(requested.some((url) => /admin-shell|client-shell/.test(url))).toBe(false);

    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/login')) loginCalls += 1;
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Email harus diisi').waitFor();
    await page.getByText('Password harus diisi').waitFor();
    expect(loginCalls).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-required-desktop');
    await page.context().close();
  });

  it('has one h1, inside main, and the brand panel and copyright in their own landmarks', async () => {
    for (const size of ['desktop', 'phone'] as const) {
      const page = await e2e.open('/login', size);
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(await page.title()).toBe('Masuk · Sebar');
      expect(await page.locator('h1').count()).toBe(1);
      await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
      // The first heading in reading order is the h1 (the brand panel comes after main).
      expect(
        await page
          .locator('h1, h2, h3')
          .first()
          .evaluate((h) => h.tagName),
      ).toBe('H1');
      if (size === 'desktop') {
        const brand = page.getByRole('complementary', { name: 'WhatsApp Blast Manager' });
        await brand.getByText('2025').waitFor();
      } else {
        await page.getByRole('contentinfo').getByText('© 2025 Sebar').waitFor();
      }
      await page.context().close();
    }
  });

  it('shows the server message inline and in a toast, and typing clears it', async () => {
    const page = await e2e.open('/login', 'phone');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('salah-sekali');
    await page.getByRole('button', { name: 'Sign In' }).click();

    const alert = page.locator('[data-login-error]');
    await alert.waitFor();
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.innerText()).toContain('Email atau password salah');
    const shown = toast(page);
    await shown.waitFor();
    expect(await shown.getAttribute('data-variant')).toBe('destructive');
    expect(await shown.innerText()).toContain('Login gagal');
    expect(await shown.innerText()).toContain('Email atau password salah');
    expect(await toast(page).count()).toBe(1);
    // The button is usable again after the failure.
    expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
    await screenshot(page, 'login-error-phone');

    await page.getByLabel('Password', { exact: true }).press('x');
    await alert.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('signs the admin in, keeps the session over a reload, and Keluar signs out', async () => {
    const page = await e2e.open('/login', 'desktop');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    // Hold the answer so the sending state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign In' }).click();
    const sending = page.getByRole('button', { name: 'Signing In...' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    release();

    await page.locator('[data-shell-title]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => shellTitle(page)).toBe('Dashboard');
    const success = toast(page);
    await success.getByText('Login berhasil').waitFor();
    expect(await success.innerText()).toContain('admin');
    const header = await page.locator('header').innerText();
    expect(header).toContain('Super Admin');
    expect(header).toContain('admin');
    const nav = page.getByRole('navigation', { name: 'Menu admin' });
    for (const label of [
      'Dashboard',
      'Kontak',
      'Notepad',
      'Pengaturan',
      'Daftar Harga',
      'Form Poin',
      'Hasil Blast',
      'Akun Klien',
    ]) {
      await nav.getByRole('link', { name: label, exact: true }).waitFor();
    }
    await nav.getByRole('link', { name: 'Akun Klien' }).click();
    await page.waitForURL('**/users');
    await expect.poll(() => shellTitle(page)).toBe('Akun Klien');

    await page.reload();
    await page.locator('[data-shell-title]').waitFor();
    await expect.poll(() => shellTitle(page)).toBe('Akun Klien');
    expect(await page.getByText('Super Administrator').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Keluar' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto(`${e2e.url}/users`);
    await page.waitForURL('**/login');
    await page.context().close();
  });

  it('sends a client whose token was revoked back to /login with the message', async () => {
    const client = await e2e.server.createClient({ username: 'budi' });
    const page = await e2e.open('/login', 'desktop');
    await signIn(page, client.user.email, client.password);
    const sidebar = await page.locator('aside').innerText();
    expect(sidebar).toContain('Poin Tersedia');
    expect(sidebar).toContain('budi');
    expect(sidebar).toContain('Client');

    const changed = await e2e.server.api('PUT', `/api/admin/users/${client.user.id}/password`, {
      token: e2e.server.adminToken,
      body: { new_password: 'password-baru-123' },
    });
    expect(changed.status).toBe(200);

    await page.reload();
    await page.waitForURL('**/login');
    await page.getByText(EXPIRED).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The new password works, and the notice is gone.
    await signIn(page, client.user.email, 'password-baru-123');
    expect(await page.getByText(EXPIRED).count()).toBe(0);
    await page.context().close();
  });

  it('Keluar ends the session on the server: the old token is refused afterwards', async () => {
    const client = await e2e.server.createClient({ username: 'keluar' });
    const page = await e2e.open('/login', 'desktop');
    await signIn(page, client.user.email, client.password);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    expect((await e2e.server.api('GET', '/api/auth/me', { token })).status).toBe(200);
    const logout = page.waitForResponse((response) => response.url().endsWith('/api/auth/logout'));
    await page.getByRole('button', { name: 'Keluar' }).click();
    await page.waitForURL('**/login');
    expect((await logout).status()).toBe(200);
    // The token copied before Keluar no longer opens anything, in the browser or outside it.
    expect((await e2e.server.api('GET', '/api/auth/me', { token })).status).toBe(401);
    await page.evaluate(
      ([saved, user]) => {
        localStorage.setItem('token', saved!);
        localStorage.setItem('user', user!);
      },
      [token, JSON.stringify(client.user)],
    );
    await page.goto(`${e2e.url}/topup`);
    await page.waitForURL('**/login');
    await page.getByText(EXPIRED).waitFor();
    await page.context().close();
  });

  it('redirects a signed-in user from /login to /', async () => {
    const client = await e2e.server.createClient();
    const page = await e2e.open('/login', 'desktop');
    await signIn(page, client.user.email, client.password);
    await page.goto(`${e2e.url}/login`);
    await page.locator('[data-shell-title]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });
});
