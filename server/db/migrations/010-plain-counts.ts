// Lists and dashboards count with plain queries on indexes: the summary counter tables of
// migrations 002-005 go (a database made before keeps them until this runs), and the status
// indexes ordered like the lists (which 002 made) are made where they are missing.
import type { Kysely } from 'kysely';

const COUNTER_TABLES = [
  'month_counts',
  'blast_totals',
  'point_request_totals',
  'blast_counts',
  'point_request_counts',
  'ledger_totals',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of COUNTER_TABLES) await db.schema.dropTable(table).ifExists().execute();
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
