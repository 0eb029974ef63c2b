// A kept webhook event that waits for its send's answer is put back, due again a little later, so
// that the events behind it are applied meanwhile: each channel's engine step reads the unapplied
// events that are due, in the order they became due. Events still unapplied become due now.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_events').addColumn('due_at', 'text').execute();
  await db
    .updateTable('webhook_events')
    .set({ due_at: sql.ref('received_at') })
    .where('processed_at', 'is', null)
    .execute();
  await db.schema.dropIndex('webhook_events_pending').execute();
  await db.schema
    .createIndex('webhook_events_due')
    .on('webhook_events')
    .columns(['source', 'due_at'])
    .where(sql.ref('processed_at'), 'is', null)
    .execute();
}
