// The WhatsApp webhook: Meta's subscription handshake, and signed deliveries kept durably before
// they are answered (a delivery Meta repeats is kept once).
import crypto from 'node:crypto';
import { now, type Db } from '#server/db/connection.ts';
import { readDelivery } from './delivery.service.ts';
import type { SecretBox } from './secret-box.ts';

export const BAD_SIGNATURE = 'Tanda tangan webhook tidak valid';

/** Constant-time equality of two texts (false when their lengths differ). */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** The challenge to answer when Meta's handshake names the saved verify token, else null. */
export async function verifySubscription(
  db: Db,
  box: SecretBox,
  query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string },
): Promise<string | null> {
  const { verify_token } = (await readDelivery(db, box)).cloud_api;
  const token = query['hub.verify_token'];
  if (query['hub.mode'] !== 'subscribe' || !verify_token || token === undefined) return null;
  return sameText(token, verify_token) ? (query['hub.challenge'] ?? '') : null;
}

/**
 * Whether `signature` (X-Hub-Signature-256) is `sha256=` and the HMAC-SHA256 of the raw body
 * under the saved app secret. No app secret saved: nothing is signed by it.
 */
export async function signedByMeta(
  db: Db,
  box: SecretBox,
  raw: Buffer,
  signature: string | undefined,
): Promise<boolean> {
  const { app_secret } = (await readDelivery(db, box)).cloud_api;
  if (!app_secret || !signature?.startsWith('sha256=')) return false;
  const expected = crypto.createHmac('sha256', app_secret).update(raw).digest('hex');
  return sameText(signature.slice('sha256='.length).toLowerCase(), expected);
}

/** Keeps a signed delivery; answers false when the same bytes were already kept. */
export async function keepWebhookEvent(db: Db, raw: Buffer): Promise<boolean> {
  const kept = await db
    .insertInto('webhook_events')
    .values({
      id: crypto.randomUUID(),
      body_sha256: crypto.createHash('sha256').update(raw).digest('hex'),
      body: raw.toString('utf8'),
      received_at: now(),
      processed_at: null,
    })
    .onConflict((oc) => oc.column('body_sha256').doNothing())
    .executeTakeFirst();
  return Number(kept.numInsertedOrUpdatedRows ?? 0) > 0;
}
