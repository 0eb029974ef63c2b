// Each channel's engine step reads its own kept webhooks not yet applied, oldest first. The
// index on the unapplied events' time alone made the gateway's read walk every Cloud API event
// waiting (and the other way round) before finding none of its own: a backlog of 20,000 cost
// each step about 3 ms on SQLite. This index serves that read; the one on time alone stays for
// the sweep's "is any event waiting" across both channels.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_events_pending')
    .on('webhook_events')
    .columns(['source', 'received_at'])
    .where(sql.ref('processed_at'), 'is', null)
    .execute();
}
