// The summary counters (migrations 002 and 004): changed inside the caller's transaction with
// every row they count, read by lists and dashboards instead of counting whole tables per request.
// One row per client and status (or type), and the all-clients totals in a few stripes: a client
// adds to the stripe of its id, so clients seldom wait on one another's row.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { type Engine, insertRows, type Write, writeAll } from './connection.ts';
import type {
  BlastsTable,
  Database,
  MonthCountsTable,
  PointRequestsTable,
  PointTransactionsTable,
} from './schema.ts';

type Trx = Transaction<Database>;
type Db = Kysely<Database>;

/** Stripes of the all-clients totals: the admin's figures read at most this many rows a status. */
export const STRIPES = 16;

/** The stripe a client's changes go to (from the id's last hex digits; 0 for any other id). */
export const stripeOf = (userId: string) => parseInt(userId.slice(-2), 16) % STRIPES || 0;

/** Rows in status order, so two transactions on one stripe lock its rows in the same order. */
const byStatus = <R extends { status: string }>(rows: R[]) =>
  rows.sort((a, b) => (a.status < b.status ? -1 : 1));

/** The month month_counts counts a row in: its created_at's 'YYYY-MM' (UTC, ISO text). */
export const monthOf = (createdAt: string) => createdAt.slice(0, 7);

/**
 * The write that adds `rows` to a counter table: a row whose key is there has its `adds` columns
 * added to, any other is inserted. Written as SQL, not through Kysely's builder: a blast's creation
 * makes four of these, and building and compiling each cost more than PostgreSQL's own work on it
 * (figures in bench/NOTES.md). Table and column names are this module's constants, never input.
 * The counters' functions answer writes, which the caller runs with its own (writeAll).
 */
function addCounts<T extends keyof Database & string, C extends keyof Database[T] & string>(
  table: T,
  keys: readonly C[],
  adds: readonly C[],
  rows: readonly Insertable<Database[T]>[],
): Write[] {
  if (rows.length === 0) return [];
  const sums = adds.map((column) => `${column} = ${table}.${column} + excluded.${column}`);
  return [
    sql`${insertRows(table, rows)}
    on conflict ${sql.raw(`(${keys.join(', ')}) do update set ${sums.join(', ')}`)}`,
  ];
}

type List = MonthCountsTable['list'];

/** Adds rows of one stripe to their months' counts, in key order (two writers lock alike). */
function addMonths(
  list: List,
  stripe: number,
  rows: { month: string; status: MonthCountsTable['status']; n: number }[],
): Write[] {
  const months = rows
    .map(({ month, status, n }) => ({ list, month, status, stripe, n }))
    .sort((a, b) =>
      a.month === b.month ? (a.status < b.status ? -1 : 1) : a.month < b.month ? -1 : 1,
    );
  return addCounts('month_counts', ['list', 'month', 'status', 'stripe'], ['n'], months);
}

/** Sums `rows` per status: one totals row each. */
function perStatus<S extends string>(
  rows: { status: S; n: number; points?: number }[],
): { status: S; n: number; points: number }[] {
  const sums = new Map<S, { status: S; n: number; points: number }>();
  for (const { status, n, points = 0 } of rows) {
    const sum = sums.get(status) ?? { status, n: 0, points: 0 };
    sum.n += n;
    sum.points += points;
    sums.set(status, sum);
  }
  return byStatus([...sums.values()]);
}

/** The counters' writes for a `blast` that appeared (from null) or changed status. */
export function countBlast(
  blast: Pick<BlastsTable, 'user_id' | 'created_at'>,
  from: BlastsTable['status'] | null,
  to: BlastsTable['status'],
): Write[] {
  if (from === to) return [];
  const userId = blast.user_id;
  const rows = [
    ...(from ? [{ user_id: userId, status: from, n: -1 }] : []),
    { user_id: userId, status: to, n: 1 },
  ];
  const month = monthOf(blast.created_at);
  return [
    ...addCounts('blast_counts', ['user_id', 'status'], ['n'], rows),
    ...addBlastTotals(
      stripeOf(userId),
      rows.map(({ status, n }) => ({ month, status, n })),
    ),
  ];
}

/** Adds blasts of one stripe to the all-clients totals and to their months' counts. */
function addBlastTotals(
  stripe: number,
  rows: { month: string; status: BlastsTable['status']; n: number }[],
): Write[] {
  return [
    ...addCounts(
      'blast_totals',
      ['stripe', 'status'],
      ['n'],
      perStatus(rows).map(({ status, n }) => ({ stripe, status, n })),
    ),
    ...addMonths('blasts', stripe, rows),
  ];
}

/** The counters' writes for a top-up `request` that appeared (from null) or was decided. */
export function countPointRequest(
  request: Pick<PointRequestsTable, 'user_id' | 'created_at' | 'points_requested'>,
  from: PointRequestsTable['status'] | null,
  to: PointRequestsTable['status'],
): Write[] {
  const { user_id: userId, points_requested: points } = request;
  const rows = [
    ...(from ? [{ user_id: userId, status: from, n: -1, points: -points }] : []),
    { user_id: userId, status: to, n: 1, points },
  ];
  const month = monthOf(request.created_at);
  return [
    ...addCounts('point_request_counts', ['user_id', 'status'], ['n', 'points'], rows),
    ...addPointRequestTotals(
      stripeOf(userId),
      rows.map(({ status, n, points }) => ({ month, status, n, points })),
    ),
  ];
}

/** Adds top-up requests of one stripe to the all-clients totals and to their months' counts. */
function addPointRequestTotals(
  stripe: number,
  rows: { month: string; status: PointRequestsTable['status']; n: number; points: number }[],
): Write[] {
  return [
    ...addCounts(
      'point_request_totals',
      ['stripe', 'status'],
      ['n', 'points'],
      perStatus(rows).map(({ status, n, points }) => ({ stripe, status, n, points })),
    ),
    ...addMonths('point_requests', stripe, rows),
  ];
}

/**
 * A client is being deleted: its blasts and top-up requests leave the all-clients totals, and its
 * own counter rows go. Called before the caller deletes the rows they count, in one transaction.
 */
export async function dropClientCounters(engine: Engine, trx: Trx, userId: string): Promise<void> {
  const stripe = stripeOf(userId);
  const month = sql<string>`substr(created_at, 1, 7)`;
  const blasts = await trx
    .selectFrom('blasts')
    .select((eb) => [month.as('month'), 'status', eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy([month, 'status'])
    .execute();
  const requests = await trx
    .selectFrom('point_requests')
    .select((eb) => [
      month.as('month'),
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('points_requested').as('points'),
    ])
    .where('user_id', '=', userId)
    .groupBy([month, 'status'])
    .execute();
  await writeAll(engine, trx, [
    ...addBlastTotals(
      stripe,
      blasts.map(({ month, status, n }) => ({ month, status, n: -Number(n) })),
    ),
    ...addPointRequestTotals(
      stripe,
      requests.map(({ month, status, n, points }) => ({
        month,
        status,
        n: -Number(n),
        points: -Number(points),
      })),
    ),
  ]);
  for (const table of ['blast_counts', 'point_request_counts', 'ledger_totals'] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
}

/** The counters' write for one more ledger entry of `type` moving `delta` points. */
export function countLedgerEntry(
  userId: string,
  type: PointTransactionsTable['type'],
  delta: number,
): Write[] {
  return addCounts(
    'ledger_totals',
    ['user_id', 'type'],
    ['n', 'total'],
    [{ user_id: userId, type, n: 1, total: delta }],
  );
}

/** Blasts per status, of one client or of all. */
export async function blastCounts(
  db: Db,
  userId?: string,
): Promise<Record<BlastsTable['status'], number>> {
  const rows = await (
    userId
      ? db.selectFrom('blast_counts').select(['status', 'n']).where('user_id', '=', userId)
      : db
          .selectFrom('blast_totals')
          .select((eb) => ['status', eb.fn.sum<number>('n').as('n')])
          .groupBy('status')
  ).execute();
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
  const rows = await (
    userId
      ? db
          .selectFrom('point_request_counts')
          .select(['status', 'n', 'points'])
          .where('user_id', '=', userId)
      : db
          .selectFrom('point_request_totals')
          .select((eb) => [
            'status',
            eb.fn.sum<number>('n').as('n'),
            eb.fn.sum<number>('points').as('points'),
          ])
          .groupBy('status')
  ).execute();
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

/** Where a page lies in its list's index (see pageWindow), and the created_at range it is read in. */
export interface PageWindow {
  reverse: boolean;
  offset: number;
  limit: number;
  /** Only rows created before this ('YYYY-MM': before that month). */
  before?: string;
  /** Only rows created in or after this month. */
  since?: string;
}

/**
 * Where a page of a list ordered newest first lies, read from whichever end of its index is
 * nearer: the last page then skips as few rows as the first (no OFFSET over the whole table).
 * With `reverse`, read oldest first with this offset and limit, then reverse the rows.
 */
export function pageWindow(page: number, pageSize: number, total: number): PageWindow {
  const start = (page - 1) * pageSize;
  const end = Math.min(start + pageSize, total);
  if (start >= total || start <= total - end) {
    return { reverse: false, offset: start, limit: pageSize };
  }
  return { reverse: true, offset: total - end, limit: end - start };
}

/**
 * From how many skipped index entries a page of an all-clients list starts at its month
 * (monthWindow); fewer cost less than reading the months' counts. Tests lower it.
 */
export const deepPages = { from: 2_000 };

const nextMonth = (month: string) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * A deep `window` of an all-clients list (of one status, or all), moved into the month it starts
 * in: month_counts says how many rows the months nearer its end of the index hold, so the OFFSET
 * skips only that month's rows, not every month's between it and the end. A client's own list is
 * short enough for the plain OFFSET and keeps its window.
 */
export async function monthWindow(
  db: Db,
  list: List,
  filter: { userId?: string; status?: MonthCountsTable['status'] },
  window: PageWindow,
): Promise<PageWindow> {
  if (filter.userId || window.offset < deepPages.from) return window;
  const { status } = filter;
  let query = db
    .selectFrom('month_counts')
    .select((eb) => ['month', eb.fn.sum<number>('n').as('n')])
    .where('list', '=', list)
    .groupBy('month')
    .orderBy('month', window.reverse ? 'asc' : 'desc');
  if (status) query = query.where('status', '=', status);
  let skipped = 0;
  for (const { month, n } of await query.execute()) {
    const count = Number(n);
    if (skipped + count > window.offset) {
      if (skipped === 0) return window;
      const offset = window.offset - skipped;
      return window.reverse
        ? { ...window, offset, since: month }
        : { ...window, offset, before: nextMonth(month) };
    }
    skipped += count;
  }
  return window;
}

/**
 * The ids of a page window of blasts or top-up requests, newest first, filtered by client and
 * status: read from a covering index alone (created_at, id, after the filter's column), so the
 * OFFSET of a middle page skips index entries, not rows. Callers read those rows by id.
 */
export function windowIds(
  db: Db,
  table: 'blasts' | 'point_requests',
  filter: { userId?: string; status?: string },
  { reverse, offset, limit, before, since }: PageWindow,
) {
  const order = reverse ? 'asc' : 'desc';
  // A page at either end of the index (offset 0: the first page, most often) has its limit and
  // offset written into the statement: without a parameter to plan around, PostgreSQL plans it
  // once per connection instead of on every call (0.7 ms of a 1.2 ms first page). Page sizes are
  // few, so such statements stay few; any other offset stays a parameter.
  const [first, skip] = offset === 0 ? [sql.lit(limit), sql.lit(0)] : [limit, offset];
  let ids = (db as Kysely<Pick<Database, 'blasts'>>)
    .selectFrom(table as 'blasts')
    .select('id')
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(first)
    .offset(skip);
  if (filter.userId) ids = ids.where('user_id', '=', filter.userId);
  if (filter.status) ids = ids.where('status', '=', filter.status as BlastsTable['status']);
  if (before) ids = ids.where('created_at', '<', before);
  if (since) ids = ids.where('created_at', '>=', since);
  return ids;
}
