// The summary counters (migration 002): changed inside the caller's transaction with every row
// they count, read by lists and dashboards instead of counting whole tables per request.
// One row per client and status (or type): no global row, so clients never contend for one.
import type { Kysely, Transaction } from 'kysely';
import type {
  BlastsTable,
  Database,
  PointRequestsTable,
  PointTransactionsTable,
} from './schema.ts';

type Trx = Transaction<Database>;
type Db = Kysely<Database>;

/** A blast of `userId` appeared (from null), changed status, or disappeared (to null). */
export async function countBlast(
  trx: Trx,
  userId: string,
  from: BlastsTable['status'] | null,
  to: BlastsTable['status'] | null,
): Promise<void> {
  if (from === to) return;
  const rows = [
    ...(from ? [{ user_id: userId, status: from, n: -1 }] : []),
    ...(to ? [{ user_id: userId, status: to, n: 1 }] : []),
  ];
  await trx
    .insertInto('blast_counts')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'status'])
        .doUpdateSet((eb) => ({ n: eb('blast_counts.n', '+', eb.ref('excluded.n')) })),
    )
    .execute();
}

/** A top-up request of `points` appeared (from null) or was decided. */
export async function countPointRequest(
  trx: Trx,
  userId: string,
  points: number,
  from: PointRequestsTable['status'] | null,
  to: PointRequestsTable['status'],
): Promise<void> {
  const rows = [
    ...(from ? [{ user_id: userId, status: from, n: -1, points: -points }] : []),
    { user_id: userId, status: to, n: 1, points },
  ];
  await trx
    .insertInto('point_request_counts')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'status']).doUpdateSet((eb) => ({
        n: eb('point_request_counts.n', '+', eb.ref('excluded.n')),
        points: eb('point_request_counts.points', '+', eb.ref('excluded.points')),
      })),
    )
    .execute();
}

/** One more ledger entry of `type` moving `delta` points. */
export async function countLedgerEntry(
  trx: Trx,
  userId: string,
  type: PointTransactionsTable['type'],
  delta: number,
): Promise<void> {
  await trx
    .insertInto('ledger_totals')
    .values({ user_id: userId, type, n: 1, total: delta })
    .onConflict((oc) =>
      oc.columns(['user_id', 'type']).doUpdateSet((eb) => ({
        n: eb('ledger_totals.n', '+', eb.ref('excluded.n')),
        total: eb('ledger_totals.total', '+', eb.ref('excluded.total')),
      })),
    )
    .execute();
}

/** Blasts per status, of one client or of all. */
export async function blastCounts(
  db: Db,
  userId?: string,
): Promise<Record<BlastsTable['status'], number>> {
  let query = db
    .selectFrom('blast_counts')
    .select((eb) => ['status', eb.fn.sum<number>('n').as('n')])
    .groupBy('status');
  if (userId) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  const of = (status: BlastsTable['status']) =>
    Number(rows.find((r) => r.status === status)?.n ?? 0);
  return {
    pending: of('pending'),
    completed: of('completed'),
    rejected: of('rejected'),
    cancelled: of('cancelled'),
  };
}

/** Top-up requests and their points per status, of one client or of all. */
export async function pointRequestCounts(
  db: Db,
  userId?: string,
): Promise<Record<PointRequestsTable['status'], { n: number; points: number }>> {
  let query = db
    .selectFrom('point_request_counts')
    .select((eb) => [
      'status',
      eb.fn.sum<number>('n').as('n'),
      eb.fn.sum<number>('points').as('points'),
    ])
    .groupBy('status');
  if (userId) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  const of = (status: PointRequestsTable['status']) => {
    const row = rows.find((r) => r.status === status);
    return { n: Number(row?.n ?? 0), points: Number(row?.points ?? 0) };
  };
  return { pending: of('pending'), approved: of('approved'), rejected: of('rejected') };
}

/** A client's ledger sums per entry type. */
export async function ledgerTotals(
  db: Db,
  userId: string,
): Promise<Record<PointTransactionsTable['type'], number>> {
  const rows = await db
    .selectFrom('ledger_totals')
    .select(['type', 'total'])
    .where('user_id', '=', userId)
    .execute();
  const of = (type: PointTransactionsTable['type']) =>
    Number(rows.find((r) => r.type === type)?.total ?? 0);
  return {
    topup: of('topup'),
    usage: of('usage'),
    refund: of('refund'),
    adjustment: of('adjustment'),
  };
}

/**
 * Where a page of a list ordered newest first lies, read from whichever end of its index is
 * nearer: the last page then skips as few rows as the first (no OFFSET over the whole table).
 * With `reverse`, read oldest first with this offset and limit, then reverse the rows.
 */
export function pageWindow(
  page: number,
  pageSize: number,
  total: number,
): { reverse: boolean; offset: number; limit: number } {
  const start = (page - 1) * pageSize;
  const end = Math.min(start + pageSize, total);
  if (start >= total || start <= total - end) {
    return { reverse: false, offset: start, limit: pageSize };
  }
  return { reverse: true, offset: total - end, limit: end - start };
}
