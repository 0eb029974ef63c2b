// Browser-test harness: the real server in-process on a fresh database, serving the built app
// (dist/client, built by `vite build` before vitest), and Debian's Chromium via playwright-core;
// and the page helpers the tests share (seed.ts puts their data in through the API).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import type { Config } from '#server/config.ts';
import { ADMIN, startServer, type TestServer } from '#server/test/helpers.ts';

export { ADMIN };
export type { Browser, Locator, Page, TestServer };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// E2E_CLIENT_DIR: a private build, so engineers building at the same time do not swap each other's.
export const CLIENT_DIR = process.env.E2E_CLIENT_DIR
  ? path.resolve(ROOT, process.env.E2E_CLIENT_DIR)
  : path.join(ROOT, 'dist', 'client');
export const SCREENSHOT_DIR = path.join(ROOT, '.tmp', 'screenshots');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export interface E2E {
  server: TestServer;
  browser: Browser;
  /** The server's base address, e.g. http://127.0.0.1:41234 */
  url: string;
  /** A fresh browser context (own localStorage) with one page at the given size, at `path`. */
  open(path?: string, viewport?: ViewportName): Promise<Page>;
  close(): Promise<void>;
}

/** Starts the server (fresh database, built client) and Chromium. Call in beforeAll. */
export async function startE2E(overrides: Partial<Config> = {}): Promise<E2E> {
  if (!fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    throw new Error(`${CLIENT_DIR}/index.html is missing: run \`npx vite build\` first`);
  }
  const server = await startServer({ clientDir: CLIENT_DIR, ...overrides });
  const browser = await launchBrowser();
  return {
    server,
    browser,
    url: server.url,
    open: (pagePath = '/', viewport = 'desktop') =>
      openPage(browser, `${server.url}${pagePath}`, viewport),
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** Opens `url` in a new context at desktop (1280x800) or phone (375x812) size. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: ViewportName = 'desktop',
): Promise<Page> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    isMobile: viewport === 'phone',
    hasTouch: viewport === 'phone',
    locale: 'id-ID',
    timezoneId: 'Asia/Jakarta',
  });
  const page = await context.newPage();
  // A page error is a bug: make it loud instead of silently passing.
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  await page.goto(url);
  return page;
}

/**
 * Lets expect.poll in the calling file wait up to 10 s: its default of 1 s is shorter than a
 * screen's fetch on a machine busy with other test runs (a poll still ends as soon as it passes).
 */
export function patientPolls() {
  vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 50 } } });
}

/** A fresh page signed in with these credentials, at `path`. */
export async function signedInPage(
  e2e: E2E,
  { email, password }: { email: string; password: string },
  path: string,
  size: ViewportName = 'desktop',
): Promise<Page> {
  const page = await e2e.open('/login', size);
  await signIn(page, email, password);
  if (path !== '/') await goTo(page, path);
  return page;
}

/** A fresh page signed in as the admin, at `path`. */
export function adminPage(e2e: E2E, path: string, size: ViewportName = 'desktop') {
  return signedInPage(e2e, ADMIN, path, size);
}

/** A fresh page signed in as this client, at `path`. */
export function clientPage(
  e2e: E2E,
  client: { user: { email: string }; password: string },
  path: string,
  size: ViewportName = 'desktop',
) {
  return signedInPage(e2e, { email: client.user.email, password: client.password }, path, size);
}

/** Loads `path` of the app in this page and waits for its shell. */
export async function goTo(page: Page, path: string) {
  await page.goto(new URL(path, page.url()).href);
  await page.locator('[data-shell-title]').waitFor();
}

/** Signs in through the /login form and waits for a shell (its header title) to appear. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/login')) {
    await page.goto(new URL('/login', page.url()).href);
  }
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.locator('[data-shell-title]').waitFor();
}

/** The toast on screen (SPEC: at most one). */
export function toast(page: Page): Locator {
  return page.locator('[data-toast]');
}

/** The open toast once one containing `text` shows; checks its title and variant when given. */
export async function expectToast(
  page: Page,
  text: string,
  { title, variant }: { title?: string; variant?: 'destructive' | 'success' | 'default' } = {},
) {
  const item = page.locator('[data-toast][data-state="open"]', { hasText: text });
  await item.waitFor();
  if (title) expect(await item.locator('[data-toast-title]').textContent()).toBe(title);
  if (variant) expect(await item.getAttribute('data-variant')).toBe(variant);
  return item;
}

/** Closes the toast on screen, so the next assertion cannot see the previous one. */
export async function dismissToasts(page: Page) {
  const open = page.locator('[data-toast][data-state="open"]');
  if ((await open.count()) > 0) {
    // By selector: while a modal dialog is open, everything outside it is aria-hidden.
    await open.locator('[aria-label="Tutup notifikasi"]').click();
    await open.waitFor({ state: 'detached' }).catch(() => undefined);
    await page.locator('[data-toast][data-state="open"]').waitFor({ state: 'hidden' });
  }
}

/** Keeps every toast text shown from now on in window.__toasts (one toast is visible at a time). */
export async function recordToasts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as any).__toasts = seen;
    const collect = () => {
      for (const el of document.querySelectorAll('[data-toast]')) {
        const text = el.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    };
    new MutationObserver(collect).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

export function recordedToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as any).__toasts as string[]);
}

/** The balance in the shell (desktop sidebar), as a number. */
export async function shellBalance(page: Page): Promise<number> {
  const text = (await page.locator('[data-balance]').textContent()) ?? '';
  return Number(text.replace(/\./g, ''));
}

/** Waits until the shell's balance reads `points`. */
export async function expectShellBalance(page: Page, points: number) {
  await expect.poll(() => shellBalance(page), { timeout: 10_000 }).toBe(points);
}

/** Nothing may stick out sideways at the page's width. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** The texts of one column of the table (1-based), top to bottom. */
export async function columnTexts(page: Page, column: number): Promise<string[]> {
  return page
    .locator(`table tbody tr td:nth-child(${column})`)
    .evaluateAll((cells) => cells.map((cell) => (cell.textContent ?? '').trim()));
}

/** The value shown on a StatCard with this title. */
export async function statValue(page: Page, title: string): Promise<string> {
  const card = page.locator('div', { has: page.locator(`p:text-is("${title}")`) }).last();
  return ((await card.locator('p.text-2xl').textContent()) ?? '').trim();
}

/** The shell header's title text. */
export async function shellTitle(page: Page): Promise<string> {
  return (await page.locator('[data-shell-title]').textContent())?.trim() ?? '';
}

/**
 * The labels a stacked DataTable row shows before its cells (their ::before text, from the column
 * headers), or [] when the row is a plain table row; and whether the row fits the page's width.
 */
export async function stackedCard(row: Locator): Promise<{ labels: string[]; fits: boolean }> {
  return row.evaluate((tr) => {
    const labels = [...tr.querySelectorAll('td')]
      .map((td) => getComputedStyle(td, '::before').content)
      .filter((content) => content !== 'none' && content !== 'normal' && content !== '')
      .map((content) => content.replace(/^"|"$/g, ''));
    const box = tr.getBoundingClientRect();
    return { labels, fits: box.left >= 0 && box.right <= document.documentElement.clientWidth };
  });
}

/** The element that has keyboard focus: its accessible label, text and id. */
/** `upper` is drawn above `lower`, and Tab goes from `upper` to `lower`, named `lowerText`. */
export async function expectStackedInTabOrder(
  page: Page,
  upper: Locator,
  lower: Locator,
  lowerText: string,
) {
  expect((await upper.boundingBox())!.y).toBeLessThan((await lower.boundingBox())!.y);
  await upper.focus();
  await page.keyboard.press('Tab');
  expect((await focused(page)).text).toBe(lowerText);
}

export function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      label: el?.getAttribute('aria-label') ?? null,
      text: (el?.textContent ?? '').trim(),
      id: el?.id ?? '',
      inDialog: !!el?.closest('[role=dialog], [role=alertdialog]'),
    };
  });
}

/**
 * Waits for focus to be inside the open dialog. Radix moves it there, and starts listening for
 * Escape, in effects a frame after the dialog shows: a key pressed before that is lost, and the
 * dialog stays open (CI, once).
 */
export async function dialogFocus(page: Page) {
  await page.waitForFunction(() =>
    document.activeElement?.closest('[role=dialog], [role=alertdialog]'),
  );
}

/** Saves a full-page PNG to .tmp/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * `screenshot`, from the top of the page (a scrolled page pictures its sticky header mid-way);
 * with a dialog open, the visible screen only (the overlay covers only that).
 */
export async function shot(page: Page, name: string) {
  const dialogOpen = await page.locator('[role=dialog], [role=alertdialog]').count();
  if (!dialogOpen) {
    await page.evaluate(() => window.scrollTo(0, 0));
    return screenshot(page, name);
  }
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
