// The last error Meta reported for the business phone number that did not halt the engine (a
// system or app problem: 131000, 131016…): its code, Meta's title and when, for 'Pengiriman'
// (decision 242).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of [
    ['warning_code', 'integer'],
    ['warning_title', 'text'],
    ['warning_at', 'text'],
  ] as const) {
    await db.schema.alterTable('delivery_engine').addColumn(column, type).execute();
  }
}
