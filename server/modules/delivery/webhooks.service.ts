// The webhooks: Meta's subscription handshake and the signature checks of Meta's and the WhatsApp
// gateway's (WAHA's) deliveries (webhook-intake.ts keeps them).
import crypto from 'node:crypto';
import type { Db } from '#server/db/connection.ts';
import { readDelivery } from './delivery.service.ts';
import { webhookSecrets } from './gateway.service.ts';
import type { SecretBox } from './secret-box.ts';
import { settingsPerTurn } from './settings-per-turn.ts';

export const BAD_SIGNATURE = 'Tanda tangan webhook tidak valid';

/**
 * What a signature header must look like to be checked at all: Meta's `sha256=` and 64 hex
 * digits (X-Hub-Signature-256), WAHA's 128 hex digits of an HMAC-SHA512 (X-Webhook-Hmac). A
 * delivery without one is refused before its body is read.
 */
export const SIGNATURE_SHAPES = {
  meta: /^sha256=[0-9a-f]{64}$/i,
  gateway: /^\s*[0-9a-f]{128}\s*$/i,
};

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

/** The signature checks of the two webhooks, each reading its secret as saved now. */
export function webhookSignatures(db: Db, box: SecretBox) {
  const delivery = settingsPerTurn(() => readDelivery(db, box));
  const gatewaySecrets = settingsPerTurn(() => webhookSecrets(db, box));
  return {
    /**
     * Whether `signature` (X-Hub-Signature-256) is `sha256=` and the HMAC-SHA256 of the raw body
     * under the saved app secret. No app secret saved: nothing is signed by it.
     */
    async byMeta(raw: Buffer, signature: string | undefined): Promise<boolean> {
      const { app_secret } = (await delivery()).cloud_api;
      if (!app_secret || !signature || !SIGNATURE_SHAPES.meta.test(signature)) return false;
      const expected = crypto.createHmac('sha256', app_secret).update(raw).digest('hex');
      return sameText(signature.slice('sha256='.length).toLowerCase(), expected);
    },
    /**
     * Whether `signature` (X-Webhook-Hmac) is the hex HMAC-SHA512 of the raw body under the saved
     * webhook secret (or the one it replaced, within the hour: decision 240), and the algorithm
     * (X-Webhook-Hmac-Algorithm), when named, is sha512. No secret saved: nothing is signed by it.
     */
    async byGateway(
      raw: Buffer,
      signature: string | undefined,
      algorithm: string | undefined,
    ): Promise<boolean> {
      if (!signature || !SIGNATURE_SHAPES.gateway.test(signature)) return false;
      if (algorithm !== undefined && algorithm.toLowerCase() !== 'sha512') return false;
      const given = signature.trim().toLowerCase();
      return (await gatewaySecrets()).some((secret) =>
        sameText(given, crypto.createHmac('sha512', secret).update(raw).digest('hex')),
      );
    },
  };
}
