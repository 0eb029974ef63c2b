// Why a pending blast the engine sends has numbers waiting that nothing sends now, and when that
// ends by itself (decision 264): outside the gateway's sending hours, no gateway device ready, the
// devices' daily limits used, the Cloud API engine paused or stopped, its daily recipient limit
// used. What the client's detail says while its blast waits; the admin's 'Pengiriman' says more.
import { HOLD_REASONS } from '#common/blast-rules.ts';
import { jakartaDayRange } from '#common/dashboard.ts';
import { GATEWAY_DEFAULTS, type DeliveryMode } from '#common/delivery.ts';
import { sendingWindow } from '#common/sending-hours.ts';
import { isoAt, type Db } from '#server/db/connection.ts';
import { deviceReady, takenToday } from './gateway-capacity.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BlastHold {
  /** The reason (HOLD_REASONS), or null when the blast is on its way or has nothing to send. */
  held_reason: string | null;
  /** When the hold ends by itself; null when it waits for the admin (or there is none). */
  resumes_at: string | null;
}

export const NOT_HELD: BlastHold = { held_reason: null, resumes_at: null };

const held = (reason: string, resumesAt: number | null): BlastHold => ({
  held_reason: reason,
  resumes_at: resumesAt === null ? null : isoAt(resumesAt),
});

/** The hold of a blast with `queued` numbers still to send (none: it is not held). */
export async function blastHold(
  db: Db,
  blast: { id: string; delivery_mode: DeliveryMode; status: string },
  queued: number,
  at = Date.now(),
): Promise<BlastHold> {
  if (blast.status !== 'pending' || queued === 0) return NOT_HELD;
  if (blast.delivery_mode === 'gateway') return gatewayHold(db, at);
  if (blast.delivery_mode === 'cloud_api') return cloudApiHold(db, blast.id, at);
  return NOT_HELD;
}

async function gatewayHold(db: Db, at: number): Promise<BlastHold> {
  const [settings, devices] = await Promise.all([
    db.selectFrom('gateway_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('gateway_devices').selectAll().execute(),
  ]);
  const pacing = { ...GATEWAY_DEFAULTS, ...settings };
  const window = sendingWindow(pacing.sending_hours, at);
  if (!window.open) return held(HOLD_REASONS.closedHours, window.opensAt);
  const ready = devices.filter((device) => deviceReady(device, at));
  if (ready.length === 0) {
    // A device held by Sebar until a known time goes on then; any other waits for the admin.
    const ends = devices
      .filter((device) => device.status === 'WORKING' && device.paused_until !== null)
      .map((device) => Date.parse(device.paused_until!));
    return ends.length > 0
      ? held(HOLD_REASONS.devicePaused, Math.min(...ends))
      : held(HOLD_REASONS.noDevice, null);
  }
  const taken = await takenToday(
    db,
    ready.map((device) => device.session),
    at,
  );
  if (ready.some((device) => (taken.get(device.session) ?? 0) < pacing.daily_limit_per_device))
    return NOT_HELD;
  const tomorrow = Date.parse(jakartaDayRange(new Date(at)).end);
  return held(HOLD_REASONS.deviceLimit, sendingWindow(pacing.sending_hours, tomorrow).opensAt);
}

async function cloudApiHold(db: Db, blastId: string, at: number): Promise<BlastHold> {
  const [engine, settings] = await Promise.all([
    db.selectFrom('delivery_engine').selectAll().where('id', '=', 1).executeTakeFirst(),
    db
      .selectFrom('delivery_settings')
      .select('daily_recipient_limit')
      .where('id', '=', 1)
      .executeTakeFirst(),
  ]);
  if (engine?.state === 'stopped') return held(HOLD_REASONS.senderStopped, null);
  if (engine?.state === 'paused') {
    const resume = engine.resume_at === null ? null : Date.parse(engine.resume_at);
    if (resume === null || resume > at) return held(HOLD_REASONS.senderPaused, resume);
  }
  const limit = settings?.daily_recipient_limit ?? null;
  if (limit === null) return NOT_HELD;
  // The engine's rule (outbox.ts withinLimits): new recipients of the last 24 hours.
  const window = await db
    .selectFrom('delivery_recipients')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min('last_sent_at').as('first'),
    ])
    .where('last_sent_at', '>', isoAt(at - DAY_MS))
    .executeTakeFirstOrThrow();
  if (Number(window.n) < limit || window.first === null) return NOT_HELD;
  // A number refused by the limit is due again an hour later: it goes at the later of the two.
  const due = await db
    .selectFrom('blast_numbers')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('blast_id', '=', blastId)
    .where('state', '=', 'queued')
    .executeTakeFirstOrThrow();
  const frees = Date.parse(String(window.first)) + DAY_MS;
  return held(
    HOLD_REASONS.recipientLimit,
    Math.max(frees, due.at ? Date.parse(String(due.at)) : 0),
  );
}
