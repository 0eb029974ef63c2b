// Seeding for the client-screen browser tests, through the real API (admin and client calls),
// plus small page helpers those tests share.
import sharp from 'sharp';
import type { Page, TestServer } from './helpers.ts';
import { expect, vi } from 'vitest';

export type Client = Awaited<ReturnType<TestServer['createClient']>>;

async function ok<T = any>(
  answer: Promise<{ status: number; body: T }>,
  expected = [200, 201],
): Promise<T> {
  const { status, body } = await answer;
  if (!expected.includes(status))
    throw new Error(`seed call failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

export function adminCall<T = any>(
  server: TestServer,
  method: string,
  url: string,
  body?: unknown,
) {
  return ok<T>(server.api(method, url, { token: server.adminToken, body }));
}

export function clientCall<T = any>(
  server: TestServer,
  client: Client,
  method: string,
  url: string,
  body?: unknown,
) {
  return ok<T>(server.api(method, url, { token: client.token, body }));
}

export const BASIC_TIER = {
  tier_name: 'Basic',
  min_points: 1,
  max_points: 100,
  price_per_point: 600,
};
export const PRO_TIER = {
  tier_name: 'Pro',
  min_points: 101,
  max_points: 1000,
  price_per_point: 500,
};

export async function addTiers(server: TestServer, tiers = [BASIC_TIER, PRO_TIER]) {
  for (const tier of tiers) await adminCall(server, 'POST', '/api/admin/pricing', tier);
}

export async function saveSettings(server: TestServer, settings: Record<string, unknown> = {}) {
  return adminCall(server, 'POST', '/api/admin/settings', {
    account_number: '1234567890',
    account_name: 'PT Sebar Indonesia',
    bank_name: 'BCA',
    barcode_url: null,
    qr_code_file: null,
    qr_data_url: null,
    allow_images: false,
    ...settings,
  });
}

/** Sets a client's balance through the admin edit (an 'adjustment' ledger entry). */
export async function setPoints(server: TestServer, client: Client, points: number) {
  await adminCall(server, 'PUT', `/api/admin/users/${client.user.id}`, {
    username: client.user.username,
    email: client.user.email,
    points,
    is_active: true,
  });
}

/** A top-up request priced by the tiers, optionally decided by the admin. */
export async function requestTopup(
  server: TestServer,
  client: Client,
  points: number,
  options: { decide?: 'approve' | 'reject'; proof?: string | null } = {},
) {
  const tiers = await clientCall(server, client, 'GET', '/api/pricing');
  const tier =
    tiers.find((t: any) => points >= t.min_points && points <= t.max_points) ?? tiers.at(-1);
  const request = await clientCall(server, client, 'POST', '/api/client/point-requests', {
    points_requested: points,
    amount_paid: Math.round(points * tier.price_per_point),
    payment_proof_url: options.proof ?? null,
  });
  if (options.decide)
    await adminCall(server, 'POST', `/api/admin/point-requests/${request.id}/${options.decide}`);
  return request;
}

/** `count` distinct valid numbers 081200000001 and up (an offset keeps sets apart). */
export function numbers(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => `0812${String(offset + i + 1).padStart(8, '0')}`);
}

export async function createBlast(
  server: TestServer,
  client: Client,
  message: string,
  targets: string[],
) {
  return clientCall(server, client, 'POST', '/api/client/blast-requests', {
    message,
    target_numbers: targets,
    image_url: null,
  });
}

export async function submitResult(
  server: TestServer,
  blastId: string,
  counts: { successful_count: number; failed_count: number; no_wa_count: number },
) {
  return adminCall(server, 'POST', `/api/admin/blast-requests/${blastId}/result`, {
    ...counts,
    admin_notes: null,
  });
}

export async function balanceOf(server: TestServer, client: Client): Promise<number> {
  return (await clientCall(server, client, 'GET', '/api/auth/me')).points;
}

export function pngBytes(color = '#0f9d58', size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
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

/** The visible toast's title and text, once one with `text` in it shows. */
export async function expectToast(
  page: Page,
  text: string,
  { title, variant }: { title?: string; variant?: 'destructive' | 'success' | 'default' } = {},
) {
  const item = page.locator('[data-toast]', { hasText: text });
  await item.waitFor();
  if (title) expect(await item.locator('[data-toast-title]').textContent()).toBe(title);
  if (variant) expect(await item.getAttribute('data-variant')).toBe(variant);
  return item;
}

/** Nothing may stick out sideways at the page's width. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** Navigates inside the app and waits for the page's h1 (first load of a screen). */
export async function go(page: Page, url: string, path: string) {
  await page.goto(`${url}${path}`);
  await page.locator('[data-shell-title]').waitFor();
}

/**
 * Lets expect.poll in the calling file wait up to 10 s: its default of 1 s is shorter than a
 * screen's fetch on a machine busy with other test runs (a poll still ends as soon as it passes).
 */
export function patientPolls() {
  vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 50 } } });
}
