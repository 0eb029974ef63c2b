// The attempt whose message Meta reported failed while its number waits to go again: that
// message's late statuses (a sent arriving after its failed) are not the number's (decision 262).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blast_numbers').addColumn('failed_attempt', 'integer').execute();
}
