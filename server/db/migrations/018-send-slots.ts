// Each claimed number goes at its own send slot (decision 218): the slots alone keep the rate, so
// the engine's row no longer keeps the claims of the last second.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_engine').dropColumn('recent_claims').execute();
}
