// A number's delivery through the Cloud API: its state only moves forward (queued < sending <
// sent < delivered < read; failed is final), whatever order Meta's statuses arrive in, and every
// timestamp is kept. The number's status (pending, success, failed, no_wa) follows from it.
import type { NumberStatus } from './blast-rules.ts';
import { failedStatus } from './whatsapp-errors.ts';

export const DELIVERY_STATES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The statuses Meta's webhooks report. */
export type ReportedStatus = 'sent' | 'delivered' | 'read' | 'failed';

const RANK: Record<Exclude<DeliveryState, 'failed'>, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  read: 4,
};

export interface DeliveryTrack {
  state: DeliveryState;
  error_code: number | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
}

/**
 * The track after Meta reports `status` at `at`. A status the track is already past changes only
 * a timestamp it lacks; failed ends a message not yet delivered, and nothing moves a failed one.
 */
export function applyStatus(
  track: DeliveryTrack,
  status: ReportedStatus,
  at: string,
  errorCode: number | null = null,
): DeliveryTrack {
  if (track.state === 'failed') return track;
  const stamp = `${status}_at` as const;
  const next = { ...track, [stamp]: track[stamp] ?? at };
  if (status === 'failed') {
    // A message the phone already has cannot fail any more: the late report's time is kept.
    if (track.state === 'delivered' || track.state === 'read') return next;
    return { ...next, state: 'failed', error_code: errorCode };
  }
  return RANK[status] > RANK[track.state] ? { ...next, state: status } : next;
}

/** The number's status in the blast for its delivery state. */
export function numberStatusOf(state: DeliveryState, errorCode: number | null): NumberStatus {
  if (state === 'failed') return failedStatus(errorCode);
  return state === 'queued' || state === 'sending' ? 'pending' : 'success';
}

/**
 * A delivery state as both detail screens name it (decision 205): the words of WhatsApp's own
 * ticks (one tick Terkirim, two Diterima, blue Dibaca), and Antre, KBBI's spelling.
 */
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Antre',
  sending: 'Mengirim',
  sent: 'Terkirim',
  delivered: 'Diterima',
  read: 'Dibaca',
  failed: 'Gagal',
};
