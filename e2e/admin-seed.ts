// Seeding and page helpers for the admin-screen browser tests: data goes in through the real
// API (admin and client calls), assertions read what the admin sees and what the server holds.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import {
  ADMIN,
  screenshot,
  SCREENSHOT_DIR,
  signIn,
  type E2E,
  type Page,
  type TestServer,
  type ViewportName,
} from './helpers.ts';

export type Client = Awaited<ReturnType<TestServer['createClient']>>;

async function ok<T = any>(answer: Promise<{ status: number; body: T }>): Promise<T> {
  const { status, body } = await answer;
  if (status !== 200 && status !== 201)
    throw new Error(`seed call failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** An admin call that must succeed; answers the body. */
export function adminApi<T = any>(server: TestServer, method: string, url: string, body?: unknown) {
  return ok<T>(server.api(method, url, { token: server.adminToken, body }));
}

/** A client call that must succeed; answers the body. */
export function clientApi<T = any>(
  server: TestServer,
  client: Client,
  method: string,
  url: string,
  body?: unknown,
) {
  return ok<T>(server.api(method, url, { token: client.token, body }));
}

/** A fresh page signed in as the admin, at `path`. */
export async function adminPage(e2e: E2E, path: string, size: ViewportName = 'desktop') {
  const page = await e2e.open('/login', size);
  await signIn(page, ADMIN.email, ADMIN.password);
  if (path !== '/') await goTo(page, path);
  return page;
}

/** Client-side navigation through the sidebar is what users do; a reload of `path` is enough here. */
export async function goTo(page: Page, path: string) {
  await page.goto(new URL(path, page.url()).href);
  await page.locator('[data-shell-title]').waitFor();
}

/** The toast once one containing `text` shows; checks its title and variant when given. */
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

export const TIER = {
  tier_name: 'Reguler',
  min_points: 1,
  max_points: 10_000,
  price_per_point: 600,
};

export async function addTier(server: TestServer, tier = TIER) {
  return adminApi(server, 'POST', '/api/admin/pricing', tier);
}

/** A top-up request priced at TIER's rate (the server checks the price). */
export async function requestTopup(
  server: TestServer,
  client: Client,
  points: number,
  proof: string | null = null,
) {
  return clientApi(server, client, 'POST', '/api/client/point-requests', {
    points_requested: points,
    amount_paid: points * TIER.price_per_point,
    payment_proof_url: proof,
  });
}

/** Sets a client's balance through the admin edit. */
export async function setPoints(server: TestServer, client: Client, points: number) {
  await adminApi(server, 'PUT', `/api/admin/users/${client.user.id}`, {
    username: client.user.username,
    email: client.user.email,
    points,
    is_active: true,
  });
}

/** `count` distinct valid numbers 0812000000NN (an offset keeps sets apart). */
export function numbers(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => `0812${String(offset + i + 1).padStart(8, '0')}`);
}

export async function createBlast(
  server: TestServer,
  client: Client,
  message: string,
  targets: string[],
  image_url: string | null = null,
) {
  return clientApi(server, client, 'POST', '/api/client/blast-requests', {
    message,
    target_numbers: targets,
    image_url,
  });
}

export async function balanceOf(server: TestServer, client: Client): Promise<number> {
  return (await clientApi(server, client, 'GET', '/api/auth/me')).points;
}

export function pngBytes(color = '#0f9d58', size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/**
 * helpers.ts `screenshot`, from the top of the page (a scrolled page pictures its sticky header
 * mid-way); with a dialog open, the visible screen only (the overlay covers only that).
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
