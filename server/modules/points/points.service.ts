// Top-up requests (client asks, admin decides) and the ledger as a list.
import crypto from 'node:crypto';
import { computePrice } from '../../../common/pricing.ts';
import type { PageQuery } from '../../../common/pagination.ts';
import type {
  CreatePointRequest,
  PointRequest,
  PointRequestPage,
  PointRequestStatus,
  Transaction,
  TransactionPage,
} from '../../../common/points.ts';
import { now, type DbHandle, transact } from '../../db/connection.ts';
import type { PointTransactionsTable } from '../../db/schema.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { listTiers } from '../pricing/pricing.routes.ts';
import { applyPoints } from './ledger.ts';

const formatRupiah = (n: number) => `Rp${n.toLocaleString('id-ID')}`;

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
  await db
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
  let items = requestsQuery(database);
  let counts = database.db
    .selectFrom('point_requests')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('points_requested').as('points'),
    ])
    .groupBy('status');
  if (filter.userId) {
    items = items.where('r.user_id', '=', filter.userId);
    counts = counts.where('user_id', '=', filter.userId);
  }
  if (filter.status) items = items.where('r.status', '=', filter.status);
  const [rows, groups] = await Promise.all([
    items
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    counts.execute(),
  ]);
  const of = (status: PointRequestStatus) => groups.find((g) => g.status === status);
  const summary = {
    pending: Number(of('pending')?.n ?? 0),
    approved: Number(of('approved')?.n ?? 0),
    rejected: Number(of('rejected')?.n ?? 0),
    approved_points: Number(of('approved')?.points ?? 0),
  };
  const total = filter.status
    ? summary[filter.status]
    : summary.pending + summary.approved + summary.rejected;
  return { items: rows, total, page, page_size, summary };
}

/** Approves (crediting the points once) or rejects a pending request. */
export async function decidePointRequest(
  database: DbHandle,
  actorId: string,
  id: string,
  decision: 'approved' | 'rejected',
): Promise<PointRequest> {
  await transact(database, async (trx) => {
    const decided = await trx
      .updateTable('point_requests')
      .set({ status: decision, processed_at: now(), processed_by: actorId })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning(['user_id', 'points_requested'])
      .executeTakeFirst();
    if (!decided) {
      const exists = await trx
        .selectFrom('point_requests')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst();
      throw exists ? conflict('Request poin sudah diproses sebelumnya') : notFound('Request poin');
    }
    if (decision === 'approved') {
      await applyPoints(trx, {
        userId: decided.user_id,
        type: 'topup',
        delta: decided.points_requested,
        description: `Top up ${decided.points_requested} poin disetujui admin`,
        pointRequestId: id,
      });
    }
    await recordAudit(trx, {
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
    created_at: row.created_at,
  };
}

export async function listTransactions(
  { db }: DbHandle,
  userId: string,
  { page, page_size }: PageQuery,
): Promise<TransactionPage> {
  const mine = db.selectFrom('point_transactions').where('user_id', '=', userId);
  const [rows, groups, user] = await Promise.all([
    mine
      .selectAll()
      .orderBy('seq', 'desc')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    mine
      .select((eb) => [
        'type',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('delta').as('sum'),
      ])
      .groupBy('type')
      .execute(),
    db.selectFrom('users').select('points').where('id', '=', userId).executeTakeFirstOrThrow(),
  ]);
  const sum = (type: PointTransactionsTable['type']) =>
    Number(groups.find((g) => g.type === type)?.sum ?? 0);
  const count = groups.reduce((n, g) => n + Number(g.n), 0);
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
