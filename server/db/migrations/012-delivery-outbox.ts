// The delivery engine's outbox (decision 204): a Cloud API blast records its mode and template,
// its numbers carry their delivery, and two small tables hold the engine's state and the last
// send to each recipient (the per-recipient gap and the daily unique-recipient limit).
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await outboxColumns(db);
  await engineTables(db);
  await queueIndexes(db);
}

/** The blast's mode and template; each number's delivery. */
async function outboxColumns(db: Db) {
  await db.schema
    .alterTable('blasts')
    .addColumn('delivery_mode', 'text', (c) => c.notNull().defaultTo('manual'))
    .execute();
  // The template as sent, JSON (name, language, header format, parameters); null in manual mode.
  await db.schema.alterTable('blasts').addColumn('template', 'text').execute();
  // Meta's id of the header image once uploaded (one upload per blast).
  await db.schema.alterTable('blasts').addColumn('media_id', 'text').execute();

  // Null state: a manual blast's number, which the engine never touches.
  const columns: [string, 'text' | 'integer'][] = [
    ['state', 'text'],
    ['provider_message_id', 'text'],
    ['error_code', 'integer'],
    ['error_title', 'text'],
    ['queued_at', 'text'],
    ['sent_at', 'text'],
    ['delivered_at', 'text'],
    ['read_at', 'text'],
    ['failed_at', 'text'],
    ['next_attempt_at', 'text'],
    ['claimed_at', 'text'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('blast_numbers').addColumn(name, type).execute();
  }
  await db.schema
    .alterTable('blast_numbers')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Due numbers in the order they become due; numbers left sending, by when they were claimed.
  await db.schema
    .createIndex('blast_numbers_due')
    .on('blast_numbers')
    .columns(['state', 'next_attempt_at'])
    .where(sql.ref('state'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('blast_numbers_message')
    .on('blast_numbers')
    .column('provider_message_id')
    .where(sql.ref('provider_message_id'), 'is not', null)
    .execute();
}

/** The engine's state and the last send to each recipient. */
async function engineTables(db: Db) {
  await db.schema
    .createTable('delivery_engine')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('running', 'paused', 'stopped')`),
    )
    .addColumn('reason', 'text')
    .addColumn('error_code', 'integer')
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('resume_at', 'text')
    // The next free send slot of all workers together (decision 204).
    .addColumn('next_slot_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('delivery_recipients')
    .addColumn('number', 'text', (c) => c.primaryKey())
    .addColumn('last_sent_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('delivery_recipients_last_sent')
    .on('delivery_recipients')
    .column('last_sent_at')
    .execute();
}

/** The kept webhook events still to apply; the queue card's figures. */
async function queueIndexes(db: Db) {
  await db.schema
    .createIndex('webhook_events_unprocessed')
    .on('webhook_events')
    .column('received_at')
    .where(sql.ref('processed_at'), 'is', null)
    .execute();

  // The queue card's figures (queue.service.ts): today's sends and failures, the last minute's
  // claims; each only over the rows that have the time.
  for (const column of ['sent_at', 'failed_at', 'claimed_at']) {
    await db.schema
      .createIndex(`blast_numbers_${column}`)
      .on('blast_numbers')
      .column(column)
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}
