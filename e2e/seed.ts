// Data for the browser tests, put in through the real API as the admin and the clients would:
// calls that must succeed, tiers, settings, balances, top-ups and blasts.
import sharp from 'sharp';
import type { TestServer } from './helpers.ts';

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

/** One tier for every top-up size. */
export const TIER = {
  tier_name: 'Reguler',
  min_points: 1,
  max_points: 10_000,
  price_per_point: 600,
};
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
  for (const tier of tiers) await adminApi(server, 'POST', '/api/admin/pricing', tier);
}

/** Saves the payment settings, with `settings` over a complete set. */
export async function saveSettings(server: TestServer, settings: Record<string, unknown> = {}) {
  return adminApi(server, 'POST', '/api/admin/settings', {
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
  await adminApi(server, 'PUT', `/api/admin/users/${client.user.id}`, {
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
  const tiers = await clientApi(server, client, 'GET', '/api/pricing');
  const tier =
    tiers.find((t: any) => points >= t.min_points && points <= t.max_points) ?? tiers.at(-1);
  const request = await clientApi(server, client, 'POST', '/api/client/point-requests', {
    points_requested: points,
    amount_paid: Math.round(points * tier.price_per_point),
    payment_proof_url: options.proof ?? null,
  });
  if (options.decide)
    await adminApi(server, 'POST', `/api/admin/point-requests/${request.id}/${options.decide}`);
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
  image_url: string | null = null,
) {
  return clientApi(server, client, 'POST', '/api/client/blast-requests', {
    message,
    target_numbers: targets,
    image_url,
  });
}

/** Enters a manual blast's result as the admin does. */
export async function submitResult(
  server: TestServer,
  blastId: string,
  counts: { successful_count: number; failed_count: number; no_wa_count: number },
) {
  return adminApi(server, 'POST', `/api/admin/blast-requests/${blastId}/result`, {
    ...counts,
    admin_notes: null,
  });
}

export async function balanceOf(server: TestServer, client: Client): Promise<number> {
  return (await clientApi(server, client, 'GET', '/api/auth/me')).points;
}

/** A square PNG of one colour. */
export function pngBytes(color = '#0f9d58', size = 64): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
}
