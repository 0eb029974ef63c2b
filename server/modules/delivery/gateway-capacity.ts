// What the gateway's devices may send now: whether a device is ready, and what each took today
// (its daily limit). Read by the gateway's claims, the admin's queue and devices, and a blast's
// hold; it imports nothing of the delivery module, so the blasts module may read it too.
import { jakartaDayRange } from '#common/dashboard.ts';
import type { Db } from '#server/db/connection.ts';
import type { GatewayDevicesTable } from '#server/db/schema.ts';

/** Whether the device may send: WORKING and not held by Sebar (a hold with no end waits for the admin). */
export function deviceReady(device: GatewayDevicesTable, at: number): boolean {
  if (device.status !== 'WORKING') return false;
  if (device.pause_reason === null) return true;
  return device.paused_until !== null && Date.parse(device.paused_until) <= at;
}

/**
 * The messages each of `sessions` sent or is sending since the start of `at`'s day (Asia/Jakarta):
 * what its daily limit counts and its card shows. A number being sent or refused by WhatsApp has its
 * place; one that check-exists found not on WhatsApp was never sent a message (decision 256).
 */
export async function takenToday(
  db: Db,
  sessions: readonly string[],
  at = Date.now(),
): Promise<Map<string, number>> {
  if (sessions.length === 0) return new Map();
  const { start } = jakartaDayRange(new Date(at));
  const rows = await db
    .selectFrom('blast_numbers')
    .select(['device', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('device', 'in', sessions)
    .where('claimed_at', '>=', start)
    .where('status', '!=', 'no_wa')
    .groupBy('device')
    .execute();
  return new Map(rows.map((row) => [row.device!, Number(row.count)]));
}
