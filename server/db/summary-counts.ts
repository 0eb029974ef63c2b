// The counts lists and dashboards show (blasts and top-up requests per status, ledger entries
// per type), kept per client in the transaction of each change: counting the rows per request
// cost more than the pages themselves at production size (decision 090).
import { sql, type Kysely } from 'kysely';
import type { Db } from './connection.ts';
import type { SummaryCountsTable } from './schema.ts';
import type { Tx } from './transaction.ts';

type Counter = SummaryCountsTable['counter'];

/** Adds `n` rows and `total` points to one client's count of `kind`. */
async function add(
  tx: Tx,
  userId: string,
  counter: Counter,
  kind: string,
  n: number,
  total: number,
) {
  await tx.db
    .insertInto('summary_counts')
    .values({ user_id: userId, counter, kind, n, total })
    .onConflict((oc) =>
      oc.columns(['user_id', 'counter', 'kind']).doUpdateSet((eb) => ({
        n: eb('summary_counts.n', '+', eb.ref('excluded.n')),
        total: eb('summary_counts.total', '+', eb.ref('excluded.total')),
      })),
    )
    .execute();
}

/**
 * A row of `counter` appeared as `to` (from null) or moved from one kind to another. The rows
 * change in kind order, so two writers of one client lock them alike.
 */
export async function countRow(
  tx: Tx,
  userId: string,
  counter: Counter,
  from: string | null,
  to: string,
  total = 0,
): Promise<void> {
  if (from === to) return;
  const changes = [{ kind: to, n: 1, total }];
  if (from !== null) changes.push({ kind: from, n: -1, total: -total });
  changes.sort((a, b) => (a.kind < b.kind ? -1 : 1));
  for (const change of changes) await add(tx, userId, counter, change.kind, change.n, change.total);
}

/** One client's counts of `counter` (or all clients' summed), by kind. */
export async function readCounts(
  db: Db,
  counter: Counter,
  userId?: string,
): Promise<Map<string, { n: number; total: number }>> {
  let query = db
    .selectFrom('summary_counts')
    .select((eb) => [
      'kind',
      eb.fn.sum<number>('n').as('n'),
      eb.fn.sum<number>('total').as('total'),
    ])
    .where('counter', '=', counter)
    .groupBy('kind');
  if (userId) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.kind, { n: Number(row.n), total: Number(row.total) }]));
}

/** Recounts every client's counts from the rows (migration 010's backfill; bench data loads). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function fillSummaryCounts(db: Kysely<any>): Promise<void> {
  await sql`delete from summary_counts`.execute(db);
  await sql`insert into summary_counts (user_id, counter, kind, n, total)
    select user_id, 'blasts', status, count(*), 0 from blasts group by user_id, status
    union all select user_id, 'point_requests', status, count(*), sum(points_requested)
      from point_requests group by user_id, status
    union all select user_id, 'ledger', type, count(*), sum(delta)
      from point_transactions group by user_id, type`.execute(db);
}
