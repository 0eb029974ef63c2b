// WhatsApp's hidden ids: a person may write to a device as `…@lid` instead of their number. The
// phone number WAHA knows for each one Sebar asked about is kept here, null when WAHA knew none,
// so that a STOP from a hidden id reaches the opt-out list (decision 241).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('whatsapp_lids')
    .addColumn('lid', 'text', (c) => c.primaryKey())
    .addColumn('number', 'text')
    .addColumn('looked_up_at', 'text', (c) => c.notNull())
    .execute();
}
