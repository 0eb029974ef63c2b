// One table of per-client counts (db/summary-counts.ts) in place of the six counter tables of
// migrations 002-005, whose tables go where a database made them; and the status indexes ordered
// like the lists (which 002 made), where they are missing.
import type { Kysely } from 'kysely';
import { fillSummaryCounts } from '#server/db/summary-counts.ts';

const OLD_COUNTERS = [
  'month_counts',
  'blast_totals',
  'point_request_totals',
  'blast_counts',
  'point_request_counts',
  'ledger_totals',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of OLD_COUNTERS) await db.schema.dropTable(table).ifExists().execute();
  await db.schema
    .createTable('summary_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('counter', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_counts_pk', ['user_id', 'counter', 'kind'])
    .execute();
  // All clients' counts are summed by kind from this index alone.
  await db.schema
    .createIndex('summary_counts_all')
    .on('summary_counts')
    .columns(['counter', 'kind', 'n', 'total'])
    .execute();
  await fillSummaryCounts(db);
  // A status tab reads its index from either end, in the list's order.
  await db.schema.dropIndex('blasts_status').ifExists().execute();
  await db.schema
    .createIndex('blasts_status_created')
    .ifNotExists()
    .on('blasts')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('point_requests_status').ifExists().execute();
  await db.schema
    .createIndex('point_requests_status_created')
    .ifNotExists()
    .on('point_requests')
    .columns(['status', 'created_at', 'id'])
    .execute();
}
