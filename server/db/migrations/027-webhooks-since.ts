// When Sebar last started receiving webhooks: a send's silence is counted from then too, so the
// statuses Meta retries after an outage are waited for before a number goes again (decision 265).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_engine').addColumn('webhooks_since', 'text').execute();
}
