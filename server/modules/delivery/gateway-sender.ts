// One send through the WhatsApp gateway (WAHA), as a person would: check that the number is on
// WhatsApp (when the settings ask), show "typing…" for a moment, then send the blast's text
// (its spintax rendered for this number) with its image. Answers what the send came to.
import { renderMessage, spintaxSeed } from '#common/spintax.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import type { Db, DbHandle } from '#server/db/connection.ts';
import type { FileStore } from '#server/modules/uploads/file-store.ts';
import type { GatewayClaimed, GatewayPacing } from './gateway-outbox.ts';
import { gatewayConnectionOf, readGateway } from './gateway.service.ts';
import { blastImage, mayStillPost, MissingImage, stillOpen } from './outbox.ts';
import type { SendOutcome } from './send-results.ts';
import type { SecretBox } from './secret-box.ts';
import {
  numberExists,
  sendMessage,
  typing,
  WAHA_TIMEOUT_MS,
  WahaError,
  type WahaConnection,
  type WahaFile,
} from './waha.ts';

/** The gateway as a send needs it: where it is, and how it paces. */
export interface GatewaySending extends GatewayPacing {
  connection: WahaConnection;
  checkNumbers: boolean;
}

/** The gateway's settings as the engine paces by them, when it is configured; else null. */
export async function readGatewaySending(
  db: Db,
  box: SecretBox,
  secondMs: number,
): Promise<GatewaySending | null> {
  const gateway = await readGateway(db, box);
  const connection = gatewayConnectionOf(gateway);
  if (!connection) return null;
  return {
    connection,
    checkNumbers: gateway.check_numbers,
    minDelaySeconds: gateway.min_delay_seconds,
    maxDelaySeconds: gateway.max_delay_seconds,
    dailyLimitPerDevice: gateway.daily_limit_per_device,
    sendingHours: gateway.sending_hours,
    secondMs,
  };
}

/**
 * WhatsApp's refusals that restrict the device, not the number (WAHA passes them on); their
 * meaning is in common/whatsapp-errors.ts.
 */
const DEVICE_RESTRICTIONS = new Set([463, 475]);

/** What a failed gateway send came to. */
export function gatewayOutcomeOf(error: unknown): SendOutcome {
  if (error instanceof MissingImage) return { kind: 'unsendable', title: error.message };
  if (!(error instanceof WahaError)) return { kind: 'unknown' };
  if (error.kind === 'unreachable') return { kind: 'unreachable' };
  if (error.kind !== 'answer') return { kind: 'unknown' };
  if (error.code !== null && DEVICE_RESTRICTIONS.has(error.code))
    return { kind: 'held', code: error.code, title: errorMeaning(error.code).meaning };
  // The session is not there or not WORKING (logged out, stopped, still pairing).
  if (error.status === 404 || error.status === 422)
    return { kind: 'held', code: null, title: 'Perangkat tidak terhubung ke WhatsApp' };
  // A server error (WAHA's engine failing, a proxy's 502) may follow a message already sent.
  if ((error.status ?? 0) >= 500) return { kind: 'unknown' };
  return { kind: 'refused', code: null, title: error.message.slice(0, 500) };
}

export interface GatewayContext {
  database: DbHandle;
  files: FileStore;
}

/**
 * Sends one claimed number; never throws. `waitMs` is how long a number may stay sending in
 * silence before a sweep takes it back (see mayStillPost).
 */
export async function sendThroughGateway(
  context: GatewayContext,
  gateway: GatewaySending,
  number: GatewayClaimed,
  sleep: (ms: number) => Promise<void>,
  waitMs: number,
): Promise<SendOutcome> {
  const { connection } = gateway;
  try {
    if (gateway.checkNumbers && !(await numberExists(connection, number.device, number.number)))
      return { kind: 'not_on_whatsapp' };
    const text = renderMessage(
      number.message,
      number.number,
      spintaxSeed(number.blastId, number.idx),
    );
    const image = number.imageUrl ? await imageOf(context, number.imageUrl) : null;
    await typing(connection, number.device, number.number, true).catch(() => undefined);
    await sleep(typingMs(text, gateway.secondMs));
    await typing(connection, number.device, number.number, false).catch(() => undefined);
    // The blast may have been closed while the device typed.
    if (!(await stillOpen(context.database, number.blastId))) return { kind: 'closed' };
    if (!mayStillPost(number.claimedAt, { waitMs, requestMs: WAHA_TIMEOUT_MS }))
      return { kind: 'late' };
    const wamid = await sendMessage(connection, {
      session: number.device,
      number: number.number,
      text,
      image,
    });
    // Taken, but not named: the number waits sending for its acks, which name it.
    return wamid === null ? { kind: 'unknown' } : { kind: 'accepted', wamid };
  } catch (error) {
    return gatewayOutcomeOf(error);
  }
}

/**
 * The longest a gateway send can take from its claim: four WAHA calls (check-exists, typing on,
 * typing off, the send), each up to WAHA's timeout, and the typing itself. A number left sending
 * goes back to the queue only after this (and a margin), so no live worker can still send it.
 */
export function gatewaySendMs(secondMs: number): number {
  return 4 * WAHA_TIMEOUT_MS + 4 * secondMs;
}

/** How long "typing…" shows: about as long as a quick typist, one to four seconds. */
function typingMs(text: string, secondMs: number): number {
  return Math.round(Math.min(4, Math.max(1, text.length / 40)) * secondMs);
}

/** The blast's image as WAHA takes it: its bytes, type and name. */
async function imageOf({ database, files }: GatewayContext, url: string): Promise<WahaFile> {
  const { bytes, mime, name } = await blastImage(database, files, url);
  return { mimetype: mime, filename: name, data: bytes.toString('base64') };
}
