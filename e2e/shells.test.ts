// Both shells at desktop and phone width: layout, phone menu, theme toggle; screenshots for review.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  screenshot,
  shellTitle,
  signIn,
  startE2E,
  type E2E,
  type Page,
  type ViewportName,
} from './helpers.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** Nothing may stick out sideways at the page's width. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

describe.each(['desktop', 'phone'] as ViewportName[])('at %s size', (size) => {
  it('the sign-in page', async () => {
    const page = await e2e.open('/login', size);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, `login-${size}`);
    await page.context().close();
  });

  it('the admin shell', async () => {
    const page = await e2e.open('/login', size);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`${e2e.url}/point-requests`);
    await page.locator('[data-shell-title]').waitFor();
    await expect.poll(() => shellTitle(page)).toBe('Form Poin');
    await expectNoSidewaysScroll(page);
    await screenshot(page, `admin-${size}`);
    if (size === 'phone') {
      const nav = page.getByRole('navigation', { name: 'Menu admin' });
      expect(await nav.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Buka menu' }).click();
      await nav.waitFor();
      await screenshot(page, `admin-${size}-menu`);
      await nav.getByRole('link', { name: 'Hasil Blast' }).click();
      await page.waitForURL('**/blast-results');
      await nav.waitFor({ state: 'hidden' });
      await expect.poll(() => shellTitle(page)).toBe('Hasil Blast');
    }
    await page.context().close();
  });

  it('the client shell, with its theme toggle', async () => {
    const client = await e2e.server.createClient({ username: `sari-${size}` });
    const page = await e2e.open('/login', size);
    await signIn(page, client.user.email, client.password);
    await page.goto(`${e2e.url}/tidak-ada`);
    await page.locator('[data-shell-title]').waitFor();
    await expect.poll(() => shellTitle(page)).toBe('Dashboard');
    await page.goto(`${e2e.url}/topup`);
    await page.locator('[data-shell-title]').waitFor();
    await expect.poll(() => shellTitle(page)).toBe('Top Up Poin');
    await expectNoSidewaysScroll(page);
    await screenshot(page, `client-${size}`);

    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      false,
    );
    await page.getByRole('button', { name: 'Aktifkan mode gelap' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Aktifkan mode terang' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    );
    if (size === 'phone') {
      await page.getByRole('button', { name: 'Buka menu' }).click();
      await page.getByRole('navigation', { name: 'Menu klien' }).waitFor();
    }
    await screenshot(page, `client-${size}-dark`);
    await page.context().close();
  });
});
