// The gateway's webhook secret before its last change, and when it changed: events WAHA signed
// with it just before the devices got the new one are still taken for a while (decision 240).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('gateway_settings')
    .addColumn('previous_webhook_secret', 'text')
    .execute();
  await db.schema
    .alterTable('gateway_settings')
    .addColumn('webhook_secret_changed_at', 'text')
    .execute();
}
