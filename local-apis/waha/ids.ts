// Ids shaped like WAHA's (engine GOWS): message ids `true_<chatId>_<ID>` around whatsmeow's
// `3EB0…` message ID, event ids `evt_<ulid>` and the ULID request ids of its webhook sender (both
// seen in WAHA's own logs, devlikeapro/waha issue #1616), and chat ids `628…@c.us`.
import { createHash, randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID: the time in milliseconds (10 characters) and 16 random ones, Crockford base32. */
export function ulid(now = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i += 1) {
    time = CROCKFORD.charAt(rest % 32) + time;
    rest = Math.floor(rest / 32);
  }
  let random = '';
  for (const byte of randomBytes(16)) random += CROCKFORD.charAt(byte % 32);
  return time + random;
}

/** The id of one webhook event: `evt_` and a lower-case ULID, stable across retries. */
export function newEventId(): string {
  return `evt_${ulid().toLowerCase()}`;
}

/** A message ID as whatsmeow makes them for sends: `3EB0` and 18 upper-case hex digits. */
export function newOutgoingId(): string {
  return `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
}

/** A message ID as a phone makes them: 20 upper-case hex digits. */
export function newIncomingId(): string {
  return randomBytes(10).toString('hex').toUpperCase();
}

/** WAHA's serialized message id of a direct chat: `<fromMe>_<chatId>_<ID>`. */
export function messageId(fromMe: boolean, chatId: string, id: string): string {
  return `${fromMe}_${chatId}_${id}`;
}

/**
 * The chat id of a person, `628…@c.us`, from a bare number (WAHA adds the suffix) or a chat id
 * (`@c.us`, or whatsmeow's `@s.whatsapp.net`); undefined for anything else.
 */
export function toChatId(value: string): string | undefined {
  const match = /^(\d{6,20})(@c\.us|@s\.whatsapp\.net)?$/.exec(value.trim());
  return match ? `${match[1]}@c.us` : undefined;
}

/** The digits of a chat id or phone number. */
export function digitsOf(value: string): string {
  return value.replace(/@.*$/, '').replace(/[^0-9]/g, '');
}

/**
 * The hidden id WhatsApp gives a person (`…@lid`, "linked id"), which it may name instead of
 * their number: 15 digits, the same for the same chat id.
 */
export function lidOf(chatId: string): string {
  const hash = createHash('sha256').update(chatId).digest();
  return `1${(hash.readBigUInt64BE() % 10n ** 14n).toString().padStart(14, '0')}@lid`;
}
