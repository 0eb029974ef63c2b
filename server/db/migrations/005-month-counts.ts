// All clients' blasts and top-up requests per month and status, striped as the totals and kept
// with every change: a deep page of the admin's lists skips whole months by these counts and
// OFFSETs only within the month it starts in. At 100,000 blasts the middle page skipped 50,000
// index entries, 5.5 ms of PostgreSQL's time on every read of it.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('month_counts')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('stripe', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('month_counts_pk', ['list', 'month', 'status', 'stripe'])
    .execute();
  await fillMonths(db);
}

/** Recomputes the month counts from the rows, all in stripe 0 (the backfill; bench data too). */
export async function fillMonths(db: AnyDb): Promise<void> {
  await db.deleteFrom('month_counts').execute();
  for (const list of ['blasts', 'point_requests']) {
    await sql`insert into month_counts (list, month, status, stripe, n)
      select ${list}, substr(created_at, 1, 7), status, 0, count(*) from ${sql.table(list)}
      group by substr(created_at, 1, 7), status`.execute(db);
  }
}
