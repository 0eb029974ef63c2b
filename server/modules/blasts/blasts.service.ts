// Blasts as they are read: one with every number, its status and its delivery; pages of them
// with each number's status; the counts per status.
import { sql } from 'kysely';
import type {
  Blast,
  BlastDetail,
  BlastNumber,
  BlastPage,
  BlastStatus,
  BlastTemplate,
  NumberDelivery,
  NumberStatus,
} from '#common/blasts.ts';
import { numberReason } from '#common/whatsapp-errors.ts';
import type { PageQuery } from '#common/pagination.ts';
import { orderedList, type Db, type DbHandle } from '#server/db/connection.ts';
import { pageWindow, windowIds, type PageWindow } from '#server/db/pages.ts';
import type { BlastNumbersTable, BlastsTable } from '#server/db/schema.ts';
import { readCounts } from '#server/db/summary-counts.ts';
import { blastHold } from '#server/modules/delivery/blast-hold.ts';
import { notFound } from '#server/plugins/errors.ts';

type BlastRow = BlastsTable & { username: string };

/** A blast with its numbers and their statuses, both in index order. */
function toBlast(row: BlastRow, numbers: string[], statuses: readonly NumberStatus[]): Blast {
  const numberStatuses: Record<string, NumberStatus> = {};
  for (let idx = 0; idx < statuses.length; idx += 1) numberStatuses[idx] = statuses[idx]!;
  return { ...blastFields(row), target_numbers: numbers, number_statuses: numberStatuses };
}

/** A blast's answer but for its numbers and their statuses. */
function blastFields(row: BlastRow): Omit<Blast, 'target_numbers' | 'number_statuses'> {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    message: row.message,
    image_url: row.image_url,
    total_numbers: row.total_numbers,
    status: row.status,
    created_at: row.created_at,
    processed_at: row.processed_at,
    successful_count: row.successful_count,
    failed_count: row.failed_count,
    no_wa_count: row.no_wa_count,
    refund_points: row.refund_points,
    points_used: row.points_used,
    admin_notes: row.admin_notes,
    // SPEC lists `results` as an object: always present, the current counts.
    results: { successful_count: row.successful_count, failed_count: row.failed_count },
    delivery_mode: row.delivery_mode,
    template: row.template === null ? null : (JSON.parse(row.template) as BlastTemplate),
    opted_out_count: row.opted_out_count,
  };
}

function blastsQuery(db: DbHandle['db']) {
  return db
    .selectFrom('blasts as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .selectAll('b')
    .select('u.username');
}

/**
 * The blasts `page` selects, newest first, each with its numbers and their statuses joined in
 * index order by the same query: one round trip for a page, and one row per blast rather than one
 * per number (a page of five 500-number blasts is five rows, not 2,500). Each number is read once,
 * as "number:status"; the lists are made for the page's rows only, outside its window. Numbers are
 * digits and statuses words, so a comma and a colon separate them safely.
 */
async function withNumbers(
  { db, engine }: DbHandle,
  page: ReturnType<typeof blastsQuery>,
): Promise<Blast[]> {
  const entry = sql<string>`${sql.ref('n.number')} || ':' || ${sql.ref('n.status')}`;
  const rows = await db
    .selectFrom(page.as('p'))
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('blast_numbers as n')
        .whereRef('n.blast_id', '=', 'p.id')
        .select(orderedList(engine, entry, 'n.idx').as('list'))
        .as('entries'),
    )
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map((row) => {
    const numbers: string[] = [];
    const statuses: NumberStatus[] = [];
    for (const item of row.entries ? row.entries.split(',') : []) {
      const colon = item.indexOf(':');
      numbers.push(item.slice(0, colon));
      statuses.push(item.slice(colon + 1) as NumberStatus);
    }
    return toBlast(row, numbers, statuses);
  });
}

export type NumberRow = Omit<
  BlastNumbersTable,
  'blast_id' | 'next_attempt_at' | 'claimed_at' | 'answer_lost_at' | 'failed_attempt' | 'device'
>;

/** A number's delivery as answered: null in manual mode. */
function deliveryOf(row: NumberRow): NumberDelivery | null {
  if (row.state === null) return null;
  return {
    state: row.state,
    provider_message_id: row.provider_message_id,
    error_code: row.error_code,
    error_title: row.error_title,
    // Meta's code in the client's words; a failure of Sebar's own (a cancel) carries its words.
    reason:
      row.error_code === null
        ? row.error_title
        : numberReason(row.error_code, row.state === 'failed'),
    attempts: row.attempts,
    queued_at: row.queued_at,
    sent_at: row.sent_at,
    delivered_at: row.delivered_at,
    read_at: row.read_at,
    failed_at: row.failed_at,
  };
}

/** One blast with every number, its status and its delivery. */
export async function getBlast(
  { db }: DbHandle,
  id: string,
  ownerId?: string,
): Promise<BlastDetail> {
  let query = blastsQuery(db).where('b.id', '=', id);
  if (ownerId) query = query.where('b.user_id', '=', ownerId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound('Blast request');
  const rows = await db
    .selectFrom('blast_numbers')
    .select([
      'idx',
      'number',
      'status',
      'state',
      'attempts',
      'provider_message_id',
      'error_code',
      'error_title',
      'queued_at',
      'sent_at',
      'delivered_at',
      'read_at',
      'failed_at',
    ])
    .where('blast_id', '=', id)
    .orderBy('idx')
    .execute();
  const queued = rows.filter((n) => n.state === 'queued').length;
  return { ...withDetail(row, rows), ...(await blastHold(db, row, queued)) };
}

export function withDetail(
  row: BlastRow,
  rows: NumberRow[],
): Omit<BlastDetail, 'held_reason' | 'resumes_at'> {
  const numbers: BlastNumber[] = rows.map((n) => ({
    index: n.idx,
    number: n.number,
    status: n.status,
    delivery: deliveryOf(n),
  }));
  return {
    ...toBlast(
      row,
      rows.map((n) => n.number),
      rows.map((n) => n.status),
    ),
    numbers,
  };
}

export async function listBlasts(
  database: DbHandle,
  { page, page_size }: PageQuery,
  filter: { userId?: string; status?: BlastStatus },
): Promise<BlastPage> {
  const { db } = database;
  const read = (window: PageWindow) =>
    withNumbers(
      database,
      blastsQuery(db).where('b.id', 'in', windowIds(db, 'blasts', filter, window)),
    );
  // The first page is the newest rows whatever the total, so it is read alongside the counts.
  const [counts, firstPage] = await Promise.all([
    blastCounts(db, filter.userId),
    page === 1 ? read(pageWindow(1, page_size, Infinity)) : null,
  ]);
  const total = counts.pending + counts.completed + counts.rejected + counts.cancelled;
  const summary = {
    ...counts,
    total,
    success_rate: total ? Math.round((counts.completed / total) * 100) : 0,
  };
  const window = pageWindow(page, page_size, filter.status ? summary[filter.status] : total);
  const rows = firstPage ?? (await read(window));
  return {
    items: rows,
    total: filter.status ? summary[filter.status] : total,
    page,
    page_size,
    summary,
  };
}

/** Blasts per status, of one client or of all. */
export async function blastCounts(db: Db, userId?: string): Promise<Record<BlastStatus, number>> {
  const counts = await readCounts(db, 'blasts', userId);
  const of = (status: BlastStatus) => counts.get(status)?.n ?? 0;
  return {
    pending: of('pending'),
    completed: of('completed'),
    rejected: of('rejected'),
    cancelled: of('cancelled'),
  };
}
