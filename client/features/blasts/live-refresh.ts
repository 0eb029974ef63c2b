// How often a blast screen reads again: every LIVE_MS while a Cloud API blast on it is still being
// sent (the engine moves its numbers by the second), else the lists' usual cadence.
import type { Blast } from '#common/blasts.ts';
import { refreshWhilePending } from '#client/lib/query-client.ts';

export const LIVE_MS = 2_000;

type Shown = Pick<Blast, 'status' | 'delivery_mode'>;

/** A Cloud API blast still pending: its numbers are being sent now. */
export const beingSent = (blast: Shown) =>
  blast.status === 'pending' && blast.delivery_mode === 'cloud_api';

/** LIVE_MS while a blast shown is being sent, else never. */
export const refreshWhileSending = (blasts: readonly Shown[] | undefined) =>
  blasts?.some(beingSent) ? LIVE_MS : false;

/** A list that also follows manual results: LIVE_MS while sending, else every REFRESH_MS while pending. */
export const refreshBlastList = (blasts: readonly Shown[] | undefined) =>
  refreshWhileSending(blasts) || refreshWhilePending(blasts);
