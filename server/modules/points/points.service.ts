// Top-up requests (client asks, admin decides) and the ledger as a list.
import crypto from 'node:crypto';
import { formatNumber, formatRupiah } from '#common/format.ts';
import { computePrice } from '#common/pricing.ts';
import type { PageQuery } from '#common/pagination.ts';
import type {
  CreatePointRequest,
  PointRequest,
  PointRequestPage,
  PointRequestStatus,
  Transaction,
  TransactionPage,
} from '#common/points.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import { pageWindow, windowIds, type PageWindow } from '#server/db/pages.ts';
import type { PointTransactionsTable } from '#server/db/schema.ts';
import { countRow, readCounts } from '#server/db/summary-counts.ts';
import { transact } from '#server/db/transaction.ts';
import { conflict, HttpError, notFound } from '#server/plugins/errors.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { listTiers } from '#server/modules/pricing/pricing.service.ts';
import { applyPoints, holdClient } from './ledger.ts';

export async function createPointRequest(
  database: DbHandle,
  userId: string,
  input: CreatePointRequest,
): Promise<PointRequest> {
  const { db } = database;
  const price = computePrice(input.points_requested, await listTiers(db));
  if (price <= 0)
    throw new HttpError(422, 'Harga untuk jumlah poin ini belum tersedia. Hubungi admin.');
  if (input.amount_paid !== price) {
    throw new HttpError(
      422,
      `Jumlah bayar tidak sesuai daftar harga (seharusnya ${formatRupiah(price)})`,
    );
  }
  const id = crypto.randomUUID();
  await transact(database, async (tx) => {
    await holdClient(tx, userId);
    await tx.db
      .insertInto('point_requests')
      .values({
        id,
        user_id: userId,
        points_requested: input.points_requested,
        amount_paid: price,
        status: 'pending',
        payment_proof_url: input.payment_proof_url,
        created_at: now(),
        processed_at: null,
        processed_by: null,
      })
      .execute();
    await countRow(tx, userId, 'point_requests', null, 'pending', input.points_requested);
  });
  return getPointRequest(database, id);
}

function requestsQuery({ db }: DbHandle) {
  return db
    .selectFrom('point_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.user_id',
      'u.username',
      'r.points_requested',
      'r.amount_paid',
      'r.status',
      'r.created_at',
      'r.processed_at',
      'r.payment_proof_url',
    ]);
}

async function getPointRequest(database: DbHandle, id: string): Promise<PointRequest> {
  const row = await requestsQuery(database).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Request poin');
  return row;
}

export async function listPointRequests(
  database: DbHandle,
  { page, page_size }: PageQuery,
  filter: { userId?: string; status?: PointRequestStatus },
): Promise<PointRequestPage> {
  const read = (window: PageWindow) =>
    requestsQuery(database)
      .where('r.id', 'in', windowIds(database.db, 'point_requests', filter, window))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .execute();
  // The first page is the newest rows whatever the total, so it is read alongside the counts.
  const [counts, firstPage] = await Promise.all([
    pointRequestCounts(database.db, filter.userId),
    page === 1 ? read(pageWindow(1, page_size, Infinity)) : null,
  ]);
  const summary = {
    pending: counts.pending.n,
    approved: counts.approved.n,
    rejected: counts.rejected.n,
    approved_points: counts.approved.points,
  };
  const total = filter.status
    ? summary[filter.status]
    : summary.pending + summary.approved + summary.rejected;
  const rows = firstPage ?? (await read(pageWindow(page, page_size, total)));
  return { items: rows, total, page, page_size, summary };
}

/** Approves (crediting the points once) or rejects a pending request. */
export async function decidePointRequest(
  database: DbHandle,
  actorId: string,
  id: string,
  decision: 'approved' | 'rejected',
): Promise<PointRequest> {
  await transact(database, async (tx) => {
    const decided = await tx.db
      .updateTable('point_requests')
      .set({ status: decision, processed_at: now(), processed_by: actorId })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning(['user_id', 'points_requested'])
      .executeTakeFirst();
    if (!decided) {
      const exists = await tx.db
        .selectFrom('point_requests')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst();
      throw exists ? conflict('Request poin sudah diproses sebelumnya') : notFound('Request poin');
    }
    await countRow(
      tx,
      decided.user_id,
      'point_requests',
      'pending',
      decision,
      decided.points_requested,
    );
    if (decision === 'approved') {
      await applyPoints(tx, {
        userId: decided.user_id,
        type: 'topup',
        delta: decided.points_requested,
        description: `Top up ${formatNumber(decided.points_requested)} poin disetujui admin`,
        pointRequestId: id,
      });
    }
    await recordAudit(tx.db, {
      actorId,
      action: decision === 'approved' ? 'point_request.approve' : 'point_request.reject',
      targetType: 'point_request',
      targetId: id,
      after: { status: decision, points: decided.points_requested, user_id: decided.user_id },
    });
  });
  return getPointRequest(database, id);
}

export function toTransaction(row: PointTransactionsTable): Transaction {
  return {
    id: row.id,
    type: row.type,
    amount: row.type === 'usage' ? -row.delta : row.delta,
    delta: row.delta,
    balance_after: row.balance_after,
    description: row.description,
    blast_id: row.blast_id,
    created_at: row.created_at,
  };
}

export async function listTransactions(
  { db }: DbHandle,
  userId: string,
  { page, page_size }: PageQuery,
): Promise<TransactionPage> {
  const [user, sums] = await Promise.all([
    db
      .selectFrom('users')
      .select(['points', 'ledger_seq'])
      .where('id', '=', userId)
      .executeTakeFirst(),
    readCounts(db, 'ledger', userId),
  ]);
  if (!user) throw notFound('Klien');
  // The chain has no gap (seq 1..ledger_seq), so any page is a key range: no OFFSET scan.
  const count = user.ledger_seq;
  const newest = count - (page - 1) * page_size;
  const rows = await db
    .selectFrom('point_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('seq', '<=', newest)
    .where('seq', '>', newest - page_size)
    .orderBy('seq', 'desc')
    .execute();
  const sum = (type: PointTransactionsTable['type']) => sums.get(type)?.total ?? 0;
  return {
    items: rows.map(toTransaction),
    total: count,
    page,
    page_size,
    summary: {
      total_topup: sum('topup'),
      total_usage: -sum('usage'),
      total_refund: sum('refund'),
      total_adjustment: sum('adjustment'),
      count,
      current_points: user.points,
    },
  };
}

/** Top-up requests and their points per status, of one client or of all. */
export async function pointRequestCounts(
  db: Db,
  userId?: string,
): Promise<Record<PointRequestStatus, { n: number; points: number }>> {
  const counts = await readCounts(db, 'point_requests', userId);
  const of = (status: PointRequestStatus) => {
    const count = counts.get(status);
    return { n: count?.n ?? 0, points: count?.total ?? 0 };
  };
  return { pending: of('pending'), approved: of('approved'), rejected: of('rejected') };
}
