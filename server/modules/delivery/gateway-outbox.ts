// The gateway channel's work in the database (decision 214): the same outbox as the Cloud API's
// (a blast's numbers, queued in the debit's transaction), taken one number at a time by each
// WORKING device at a human pace: a random gap between sends, sending hours, a daily limit.
import { sendingWindow } from '#common/sending-hours.ts';
import { isoAt, type DbHandle } from '#server/db/connection.ts';
import { forUpdate, transact } from '#server/db/transaction.ts';
import { claimedAt } from './outbox.ts';
import { deviceReady, takenToday } from './gateway-capacity.ts';

/** How the gateway paces its devices (from its settings). */
export interface GatewayPacing {
  minDelaySeconds: number;
  maxDelaySeconds: number;
  dailyLimitPerDevice: number;
  /** 'HH:MM-HH:MM', Asia/Jakarta. */
  sendingHours: string;
  /** How long one of the pacing's seconds is (1000; tests shorten it). */
  secondMs: number;
}

/** A number a device took to send now, with what its message needs. */
export interface GatewayClaimed {
  device: string;
  blastId: string;
  idx: number;
  number: string;
  message: string;
  imageUrl: string | null;
  /** When it was claimed (epoch ms): see mayStillPost. */
  claimedAt: number;
}

/**
 * Each ready device whose gap has passed takes the next due number (oldest first), within the
 * sending hours and its daily limit, and draws its next gap. Devices are locked one by one, so
 * several workers never take two numbers for one device at once. Answers what was taken and when
 * to look again (ms).
 */
export async function claimForDevices(
  database: DbHandle,
  pacing: GatewayPacing,
  at = Date.now(),
  random: () => number = Math.random,
): Promise<{ claimed: GatewayClaimed[]; waitMs: number }> {
  const window = sendingWindow(pacing.sendingHours, at);
  if (!window.open) return { claimed: [], waitMs: window.opensAt - at };
  return transact(database, async (tx) => {
    const devices = await forUpdate(
      tx,
      tx.db
        .selectFrom('gateway_devices')
        .selectAll()
        .where('status', '=', 'WORKING')
        .orderBy('session'),
    ).execute();
    const ready = devices.filter((d) => deviceReady(d, at));
    const taken = await takenToday(
      tx.db,
      ready.map((d) => d.session),
      at,
    );
    const claimed: GatewayClaimed[] = [];
    let waitMs = Infinity;
    for (const device of ready) {
      const nextSend = device.next_send_at ? Date.parse(device.next_send_at) : at;
      if (nextSend > at) {
        waitMs = Math.min(waitMs, nextSend - at);
        continue;
      }
      if ((taken.get(device.session) ?? 0) >= pacing.dailyLimitPerDevice) continue;
      const next = await tx.db
        .selectFrom('blast_numbers as n')
        .innerJoin('blasts as b', 'b.id', 'n.blast_id')
        .select(['n.blast_id', 'n.idx', 'n.number', 'b.message', 'b.image_url'])
        .where('b.delivery_mode', '=', 'gateway')
        .where('n.state', '=', 'queued')
        .where('n.next_attempt_at', '<=', isoAt(at))
        .orderBy('n.next_attempt_at')
        .orderBy('n.blast_id')
        .orderBy('n.idx')
        .limit(1)
        .executeTakeFirst();
      if (!next) break;
      await tx.db
        .updateTable('blast_numbers')
        .set((eb) => ({ ...claimedAt(eb, at), device: device.session }))
        .where('blast_id', '=', next.blast_id)
        .where('idx', '=', next.idx)
        .execute();
      const gapMs = humanGap(pacing, random);
      await tx.db
        .updateTable('gateway_devices')
        .set({ next_send_at: isoAt(at + gapMs) })
        .where('session', '=', device.session)
        .execute();
      waitMs = Math.min(waitMs, gapMs);
      claimed.push({
        device: device.session,
        blastId: next.blast_id,
        idx: next.idx,
        number: next.number,
        message: next.message,
        imageUrl: next.image_url,
        claimedAt: at,
      });
    }
    return { claimed, waitMs };
  });
}

/** A gap drawn evenly between the least and the most, in the pacing's seconds. */
function humanGap(pacing: GatewayPacing, random: () => number): number {
  const seconds =
    pacing.minDelaySeconds + random() * (pacing.maxDelaySeconds - pacing.minDelaySeconds);
  return Math.round(seconds * pacing.secondMs);
}

/**
 * Holds a device (a restriction, a lost session): it takes no more numbers until `until`, or until
 * the admin resumes it when `until` is null; its numbers go to the other devices.
 */
export async function holdDevice(
  { db }: DbHandle,
  session: string,
  hold: { reason: string; code: number | null; until: number | null },
): Promise<void> {
  await db
    .updateTable('gateway_devices')
    .set({
      pause_reason: hold.reason,
      error_code: hold.code,
      paused_until: hold.until === null ? null : isoAt(hold.until),
      updated_at: isoAt(Date.now()),
    })
    .where('session', '=', session)
    .execute();
}
