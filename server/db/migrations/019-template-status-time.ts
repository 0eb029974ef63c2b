// A template's status now changes between syncs too, from Meta's template status webhooks, so
// the row keeps when its status was last known (a sync's time, or a webhook's trigger time)
// rather than when it was synced: a webhook older than what the row knows changes nothing.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('whatsapp_templates').renameColumn('synced_at', 'status_at').execute();
}
