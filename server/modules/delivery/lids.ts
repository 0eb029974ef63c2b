// The numbers behind WhatsApp's hidden ids: a person may write to a device as '…@lid' instead of
// their number. The events that need one wait while Sebar asks WAHA (outside any transaction),
// and the answer is kept, a number or null when WAHA knew none (decision 241).
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import { gatewayConnectionOf, readGateway } from './gateway.service.ts';
import type { SecretBox } from './secret-box.ts';
import { lidNumber, WahaError } from './waha.ts';

/** A hidden id heard by a device, to be asked about through that device's session. */
export interface LidLookup {
  session: string;
  lid: string;
}

/** The kept answers for these hidden ids: a number, or null when WAHA knew none. */
export async function knownLids(db: Db, lids: string[]): Promise<Map<string, string | null>> {
  if (lids.length === 0) return new Map();
  const rows = await db
    .selectFrom('whatsapp_lids')
    .select(['lid', 'number'])
    .where('lid', 'in', [...new Set(lids)])
    .execute();
  return new Map(rows.map((row) => [row.lid, row.number]));
}

/**
 * Asks WAHA for the number of each hidden id and keeps the answer. A failed call keeps nothing:
 * the event waits and asks again at its next look.
 */
export async function lookUpLids(
  database: DbHandle,
  secrets: SecretBox,
  lookups: LidLookup[],
): Promise<void> {
  if (lookups.length === 0) return;
  const connection = gatewayConnectionOf(await readGateway(database.db, secrets));
  if (!connection) return;
  const asked = new Set<string>();
  for (const { session, lid } of lookups) {
    if (asked.has(lid)) continue;
    asked.add(lid);
    let number: string | null;
    try {
      number = await lidNumber(connection, session, lid);
    } catch (error) {
      if (error instanceof WahaError) continue;
      throw error;
    }
    await database.db
      .insertInto('whatsapp_lids')
      .values({ lid, number, looked_up_at: now() })
      .onConflict((oc) => oc.column('lid').doUpdateSet({ number, looked_up_at: now() }))
      .execute();
  }
}
