// Seals the delivery secrets at rest: AES-256-GCM under a key derived from SEBAR_SECRET_KEY, or
// from a key made once and kept in the database when that is unset (like the token key).
import crypto from 'node:crypto';
import { keptKey } from '#server/db/app-secrets.ts';
import type { Db } from '#server/db/connection.ts';

const VERSION = 'v1';

export interface SecretBox {
  seal(plain: string): string;
  /** The sealed text's plain text, or null when it was sealed under another key (or altered). */
  open(sealed: string): string | null;
}

export async function loadSecretBox(db: Db, configured: string | null): Promise<SecretBox> {
  const material = configured ? Buffer.from(configured) : await keptKey(db, 'secret_key');
  const key = Buffer.from(
    crypto.hkdfSync('sha256', material, Buffer.alloc(0), 'sebar delivery secrets', 32),
  );
  return secretBox(key);
}

/** Opened texts kept at most (the settings hold five secrets; each save seals them anew). */
const MAX_OPENED = 64;

export function secretBox(key: Buffer): SecretBox {
  // A sealed text always opens to the same plain text, and the hot paths (each webhook's
  // signature, each claim of the engine) open the same few again and again (decision 215).
  const opened = new Map<string, string | null>();
  const openOnce = (sealed: string) => {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return null;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, unpart(iv));
      decipher.setAuthTag(unpart(tag));
      return Buffer.concat([decipher.update(unpart(body)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  };
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body].map(part).join('.');
    },
    open(sealed) {
      let plain = opened.get(sealed);
      if (plain === undefined) {
        plain = openOnce(sealed);
        if (opened.size >= MAX_OPENED) opened.clear();
        opened.set(sealed, plain);
      }
      return plain;
    },
  };
}

const part = (value: string | Buffer) =>
  typeof value === 'string' ? value : value.toString('base64url');
const unpart = (value: string) => Buffer.from(value, 'base64url');
