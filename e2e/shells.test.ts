// Both shells at desktop and phone width: layout, phone menu, theme toggle; screenshots for review.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '#client/app/routes.ts';
import {
  ADMIN,
  adminPage,
  dialogFocus,
  type E2E,
  focused,
  goTo,
  type Page,
  screenshot,
  shellTitle,
  signIn,
  stackedCard,
  startE2E,
  type ViewportName,
  VIEWPORTS,
} from './helpers.ts';
import { addTiers, adminApi, createBlast, numbers, requestTopup, setPoints, TIER } from './seed.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** The header's title shows whole (not cut with an ellipsis), and the header fits the page. */
async function expectHeaderFits(page: Page) {
  const fit = await page.evaluate(() => {
    const title = document.querySelector<HTMLElement>('[data-shell-title]')!;
    const header = document.querySelector('header')!;
    return {
      title: title.scrollWidth <= title.clientWidth && title.scrollHeight <= title.clientHeight,
      header: header.getBoundingClientRect().right <= document.documentElement.clientWidth,
    };
  });
  expect(fit).toEqual({ title: true, header: true });
}

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
    expect(await page.title()).toBe('Form Poin · Sebar');
    await expectNoSidewaysScroll(page);
    await expectHeaderFits(page);
    const header = page.locator('header');
    await header.getByText('admin', { exact: true }).waitFor();
    await header.getByText('Super Admin', { exact: true }).waitFor();
    await screenshot(page, `admin-${size}`);
    // Every screen's title shows whole beside the admin's name, the longest too.
    for (const { path, label } of ADMIN_ROUTES) {
      await goTo(page, path);
      await expect.poll(() => shellTitle(page)).toBe(label);
      await expectHeaderFits(page);
    }
    await goTo(page, '/opt-outs');
    await screenshot(page, `admin-${size}-long-title`);
    await goTo(page, '/point-requests');
    if (size === 'phone') {
      const nav = page.getByRole('navigation', { name: 'Menu admin' });
      const toggle = page.getByRole('button', { name: 'Buka menu' });
      expect(await nav.isVisible()).toBe(false);
      // Escape closes the menu and gives focus back to its toggle.
      await toggle.click();
      await nav.waitFor();
      await dialogFocus(page);
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'hidden' });
      await expect.poll(async () => (await focused(page)).label).toBe('Buka menu');
      // Choosing a screen closes it and puts focus on the new page.
      await page.keyboard.press('Enter');
      await nav.waitFor();
      await screenshot(page, `admin-${size}-menu`);
      await nav.getByRole('link', { name: 'Hasil Blast' }).click();
      await page.waitForURL('**/blast-results');
      await nav.waitFor({ state: 'hidden' });
      await expect.poll(() => shellTitle(page)).toBe('Hasil Blast');
      await expect.poll(async () => (await focused(page)).id).toBe('main');
      expect(await page.title()).toBe('Hasil Blast · Sebar');
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
    expect(await page.title()).toBe('Top Up Poin · Sebar');
    await expectNoSidewaysScroll(page);
    await expectHeaderFits(page);
    await page.locator('header').getByText(`sari-${size}`, { exact: true }).waitFor();
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

  it('a skip link is the first Tab stop and takes the keyboard to the page', async () => {
    const page = await e2e.open('/login', size);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`${e2e.url}/users`);
    await page.getByRole('button', { name: 'Tambah Klien Baru' }).waitFor();
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Langsung ke konten utama');
    expect(await page.getByRole('link', { name: 'Langsung ke konten utama' }).isVisible()).toBe(
      true,
    );
    await screenshot(page, `skip-link-${size}`);
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('main');
    // The next Tab stop is the page's own first control, past the navigation and header.
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Tambah Klien Baru');
    await page.context().close();
  });

  it('client lists fit the width: rows are labelled cards on a phone', async () => {
    const client = await e2e.server.createClient({ username: `rina-${size}` });
    await e2e.server.api('PUT', `/api/admin/users/${client.user.id}`, {
      token: e2e.server.adminToken,
      body: {
        username: client.user.username,
        email: client.user.email,
        points: 40,
        is_active: true,
      },
    });
    const page = await e2e.open('/login', size);
    await signIn(page, client.user.email, client.password);
    await page.goto(`${e2e.url}/point-history`);
    const row = page.getByRole('table', { name: 'Riwayat transaksi poin' }).locator('tbody tr');
    await row.first().getByText('+40').waitFor();
    await expectNoSidewaysScroll(page);
    expect(await stackedCard(row.first())).toEqual({
      labels: size === 'phone' ? ['Tanggal', 'Tipe', 'Deskripsi', 'Jumlah', 'Saldo'] : [],
      fits: true,
    });
    await page.context().close();
  });
});

describe('a name or text without spaces', () => {
  it("does not widen an admin table past the screen: each row's actions stay in view", async () => {
    const long = 'pengguna_dengan_nama_yang_sangat_panjang_sekali_3';
    const client = await e2e.server.createClient({ username: long });
    await addTiers(e2e.server, [TIER]);
    await setPoints(e2e.server, client, 10);
    await requestTopup(e2e.server, client, 100);
    await createBlast(e2e.server, client, `${long}_${long}`, numbers(2));
    await adminApi(e2e.server, 'POST', '/api/admin/notes', {
      title: `${long}${long}`,
      content: 'x'.repeat(300),
    });
    const page = await adminPage(e2e, '/point-requests');
    for (const [path, action] of [
      ['/point-requests', 'Approve'],
      ['/blast-results', 'Tolak'],
      ['/notes', 'Hapus'],
    ] as const) {
      await goTo(page, path);
      const row = page.locator('tbody tr', { hasText: long.slice(0, 20) });
      const button = row.getByRole('button', { name: new RegExp(`^${action}`) });
      await button.waitFor();
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, path).toBeLessThanOrEqual(VIEWPORTS.desktop.width);
      const table = await row.evaluate((tr) => {
        const scroller = tr.closest('.overflow-x-auto')!;
        return { scroll: scroller.scrollWidth, client: scroller.clientWidth };
      });
      expect(table.scroll, path).toBeLessThanOrEqual(table.client);
    }
    await screenshot(page, 'long-name-notes-desktop');
    await page.context().close();
  });
});
