// Lists and dashboards at production size: per-client counters that the services keep in the
// same transaction as each change (no counting a whole table per request), and status indexes
// ordered like the lists (a status tab reads its index from either end).
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('blast_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('blast_counts_pk', ['user_id', 'status'])
    .execute();
  await s
    .createTable('point_request_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('point_request_counts_pk', ['user_id', 'status'])
    .execute();
  await s
    .createTable('ledger_totals')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_totals_pk', ['user_id', 'type'])
    .execute();
  await fillCounters(db);

  await s.dropIndex('blasts_status').execute();
  await s
    .createIndex('blasts_status_created')
    .on('blasts')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await s.dropIndex('point_requests_status').execute();
  await s
    .createIndex('point_requests_status_created')
    .on('point_requests')
    .columns(['status', 'created_at', 'id'])
    .execute();
}

/** Recomputes every counter from the rows (the migration's backfill; bench data loads too). */
export async function fillCounters(db: AnyDb): Promise<void> {
  for (const table of ['blast_counts', 'point_request_counts', 'ledger_totals']) {
    await db.deleteFrom(table).execute();
  }
  await sql`insert into blast_counts (user_id, status, n)
    select user_id, status, count(*) from blasts group by user_id, status`.execute(db);
  await sql`insert into point_request_counts (user_id, status, n, points)
    select user_id, status, count(*), sum(points_requested) from point_requests
    group by user_id, status`.execute(db);
  await sql`insert into ledger_totals (user_id, type, n, total)
    select user_id, type, count(*), sum(delta) from point_transactions
    group by user_id, type`.execute(db);
}
