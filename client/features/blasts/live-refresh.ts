// How often a blast screen reads again: every LIVE_MS while a blast the engine sends (Cloud API or
// gateway) is still being sent (the engine moves its numbers by the second), else the lists' usual
// cadence. A detail also follows such a blast for a while after it completed: WhatsApp reports
// delivered, read and late failures after the send, and a number counts as sent (so the blast as
// done) on its first answer.
import { sentByEngine } from '#common/blast-rules.ts';
import type { Blast, BlastDetail } from '#common/blasts.ts';
import type { DeliveryState } from '#common/delivery-states.ts';
import { refreshWhilePending } from '#client/lib/query-client.ts';

export const LIVE_MS = 2_000;
/** How long after an engine's blast ended its detail keeps following numbers that can still move. */
export const SETTLING_MS = 15 * 60_000;

type Shown = Pick<Blast, 'status' | 'delivery_mode'>;
type ShownDetail = Shown & Pick<BlastDetail, 'processed_at' | 'numbers'>;

/** States Meta may still move a number out of (sent to delivered, read or a late failure). */
const MOVING: ReadonlySet<DeliveryState> = new Set(['queued', 'sending', 'sent', 'delivered']);

/** An engine's blast (Cloud API, gateway) still pending: its numbers are being sent now. */
export const beingSent = (blast: Shown) =>
  blast.status === 'pending' && sentByEngine(blast.delivery_mode);

/** An engine's blast that ended lately with numbers whose statuses may still come in. */
export const stillSettling = (blast: ShownDetail, now = Date.now()) =>
  blast.status !== 'pending' &&
  sentByEngine(blast.delivery_mode) &&
  blast.processed_at !== null &&
  now - Date.parse(blast.processed_at) < SETTLING_MS &&
  blast.numbers.some((n) => n.delivery !== null && MOVING.has(n.delivery.state));

/** LIVE_MS while a blast shown is being sent, else never. */
export const refreshWhileSending = (blasts: readonly Shown[] | undefined) =>
  blasts?.some(beingSent) ? LIVE_MS : false;

/** A detail: LIVE_MS while its blast is being sent or its numbers still settle, else never. */
export const refreshDetail = (blast: ShownDetail | undefined) =>
  blast && (beingSent(blast) || stillSettling(blast)) ? LIVE_MS : false;

/** A list that also follows manual results: LIVE_MS while sending, else every REFRESH_MS while pending. */
export const refreshBlastList = (blasts: readonly Shown[] | undefined) =>
  refreshWhileSending(blasts) || refreshWhilePending(blasts);
