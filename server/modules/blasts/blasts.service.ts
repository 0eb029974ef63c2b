// Blasts: creation with its single debit, results and per-number statuses with refunds settled
// as differences, and the admin's reject and the client's cancel with a full refund.
import crypto from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import {
  BLAST_MESSAGES,
  resultStatuses,
  resultSumMessage,
  type Blast,
  type BlastPage,
  type BlastResultInput,
  type BlastStatus,
  type CreateBlast,
  type NumberStatus,
} from '../../../common/blasts.ts';
import type { PageQuery } from '../../../common/pagination.ts';
import { formatNumber } from '../../../common/format.ts';
import { analyzeNumbers, MAX_NUMBERS_PER_BLAST } from '../../../common/phone.ts';
import {
  forUpdate,
  insertRows,
  jsonArrayRows,
  now,
  orderedList,
  type DbHandle,
  type Engine,
  transact,
  writeAll,
} from '../../db/connection.ts';
import {
  blastCounts,
  countBlast,
  monthWindow,
  pageWindow,
  windowIds,
  type PageWindow,
} from '../../db/counters.ts';
import type { BlastsTable, Database } from '../../db/schema.ts';
import { conflict, HttpError, notFound } from '../../plugins/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { applyPoints, holdClient, movePoints } from '../points/ledger.ts';
import { readSettings } from '../settings/settings.service.ts';
import { findUpload, IMAGES_OFF } from '../uploads/uploads.service.ts';

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

type BlastRow = BlastsTable & { username: string };
type Trx = Transaction<Database>;

const TAKE_BACK_FAILED =
  'Poin klien tidak cukup untuk menarik kembali refund. Hasil blast tidak diubah.';

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
  };
}

const PENDING: NumberStatus = 'pending';
/** `"0":"pending"` to `"499":"pending"`: a new blast's statuses, as JSON text. */
const PENDING_STATUSES = Array.from(
  { length: MAX_NUMBERS_PER_BLAST },
  (_, i) => `"${i}":"${PENDING}"`,
);

/**
 * A new blast's answer as JSON text, its numbers' JSON made beforehand (outside the transaction)
 * and every status pending: serialising a 500-number answer whole (20 KB) was the largest piece
 * of work inside the transaction, while its locks were held.
 */
function newBlastJson(row: BlastRow, numbersJson: string): string {
  const fields = JSON.stringify(blastFields(row));
  const statuses = PENDING_STATUSES.slice(0, row.total_numbers).join(',');
  return `${fields.slice(0, -1)},"target_numbers":${numbersJson},"number_statuses":{${statuses}}}`;
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

export async function getBlast(database: DbHandle, id: string, ownerId?: string): Promise<Blast> {
  let query = blastsQuery(database.db).where('b.id', '=', id);
  if (ownerId) query = query.where('b.user_id', '=', ownerId);
  const [blast] = await withNumbers(database, query);
  if (!blast) throw notFound('Blast request');
  return blast;
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
  const rows = firstPage ?? (await read(await monthWindow(db, 'blasts', filter, window)));
  return {
    items: rows,
    total: filter.status ? summary[filter.status] : total,
    page,
    page_size,
    summary,
  };
}

/** Why a blast may not carry the image at `url` now, or null (it may). */
async function imageRefusal(db: DbHandle['db'], url: string, userId: string) {
  if (!(await readSettings(db)).allow_images) return IMAGES_OFF;
  if (!(await findUpload(db, url, 'image', userId)))
    return 'Gambar tidak ditemukan. Upload ulang gambar Anda.';
  return null;
}

export const IDEMPOTENCY_MISMATCH = 'Idempotency-Key sudah dipakai untuk permintaan yang berbeda';

/**
 * Creates a blast and charges its unique valid numbers once, and answers the new blast as JSON
 * text: built once, it is both the answer and, with an idempotency key, the stored answer every
 * retry gets back (a 500-number answer is costly to copy and serialise twice).
 */
export async function createBlast(
  database: DbHandle,
  userId: string,
  input: CreateBlast,
  idempotencyKey: string | null,
): Promise<string> {
  const { db } = database;
  const analysis = analyzeNumbers(input.target_numbers);
  if (analysis.invalid.length > 0)
    throw new HttpError(422, BLAST_MESSAGES.invalid(analysis.invalid.length));
  const imageRefused =
    input.image_url === null ? null : await imageRefusal(db, input.image_url, userId);
  const requestHash = crypto
    .createHash('sha256')
    .update(JSON.stringify([input.message, input.target_numbers, input.image_url]))
    .digest('hex');
  const count = analysis.unique.length;
  // Normalised numbers are digits only: their JSON array needs no escaping. It is both the
  // answer's list and the one parameter the numbers' rows are inserted from.
  const numbersJson = `["${analysis.unique.join('","')}"]`;

  return transact(database, async (trx) => {
    const owner = await holdClient(database.engine, trx, userId);
    const row: BlastsTable = {
      id: crypto.randomUUID(),
      user_id: userId,
      message: input.message,
      image_url: input.image_url,
      total_numbers: count,
      status: 'pending',
      successful_count: 0,
      failed_count: 0,
      no_wa_count: 0,
      refund_points: 0,
      points_used: count,
      admin_notes: null,
      created_at: now(),
      processed_at: null,
    };
    // The answer is known before anything is written: the key is claimed with it, so the stored
    // answer is written once (a 500-number answer is about 20 KB), and a transaction that fails
    // after the claim takes the claim back with it.
    const body = newBlastJson({ ...row, username: owner.username }, numbersJson);
    if (idempotencyKey) {
      // Claims the key first; a concurrent holder makes this wait, then see its stored answer.
      const claim = insertRows('idempotency_keys', [
        {
          user_id: userId,
          key: idempotencyKey,
          request_hash: requestHash,
          status_code: 201,
          response_body: body,
          created_at: row.created_at,
        },
      ]);
      const claimed = await sql`${claim} on conflict (user_id, key) do nothing`.execute(trx);
      if (!claimed.numAffectedRows) {
        const stored = await trx
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('user_id', '=', userId)
          .where('key', '=', idempotencyKey)
          .executeTakeFirstOrThrow();
        if (stored.request_hash !== requestHash) throw new HttpError(422, IDEMPOTENCY_MISMATCH);
        return stored.response_body;
      }
    }
    // After the key's claim: a retry of a blast made while images were allowed gets that blast.
    if (imageRefused) throw new HttpError(422, imageRefused);
    const debit = await movePoints(
      database.engine,
      trx,
      {
        userId,
        type: 'usage',
        delta: -count,
        description: `Blast WhatsApp ke ${formatNumber(count)} nomor`,
        blastId: row.id,
      },
      (points) => `${BLAST_MESSAGES.notEnoughTitle}: ${BLAST_MESSAGES.notEnough(count, points)}`,
    );
    // One JSON parameter instead of a VALUES list of up to 2,000 parameters.
    const rows = jsonArrayRows(database.engine, numbersJson);
    await writeAll(database.engine, trx, [
      ...debit.writes,
      insertRows('blasts', [row]),
      ...countBlast(row, null, 'pending'),
      sql`insert into blast_numbers (blast_id, idx, number, status)
        select ${row.id}, n.idx, n.value, 'pending' from (${rows}) as n`,
    ]);
    return body;
  });
}

async function lockBlast(database: DbHandle, trx: Trx, id: string, ownerId?: string) {
  let query = trx.selectFrom('blasts').selectAll().where('id', '=', id);
  if (ownerId) query = query.where('user_id', '=', ownerId);
  if (database.engine === 'postgres') {
    // The client's row first, as a client's deletion locks it first: the two never deadlock.
    const found = await query.executeTakeFirst();
    if (!found) throw notFound('Blast request');
    await holdClient(database.engine, trx, found.user_id, 'Blast request');
  }
  const blast = await forUpdate(database.engine, query).executeTakeFirst();
  if (!blast) throw notFound('Blast request');
  return blast;
}

const CLOSED_MESSAGE: Record<string, string> = {
  rejected: 'Blast request ini sudah ditolak',
  cancelled: 'Blast request ini sudah dibatalkan',
};

/**
 * Moves the blast's refund to `target`, crediting or taking back only the difference, described
 * by `describe` of that difference.
 */
async function settleRefund(
  engine: Engine,
  trx: Trx,
  blast: BlastsTable,
  target: number,
  describe: (delta: number) => string,
) {
  const delta = target - blast.refund_points;
  await applyPoints(
    engine,
    trx,
    {
      userId: blast.user_id,
      type: 'refund',
      delta,
      description: describe(delta),
      blastId: blast.id,
    },
    TAKE_BACK_FAILED,
  );
}

/** A completed blast's refund moved by `delta`: a correction, said as one (not a new refund). */
function correction(what: string, counts: { failed_count: number; no_wa_count: number }) {
  const now = `kini ${counts.failed_count} gagal, ${counts.no_wa_count} tanpa WhatsApp`;
  return (delta: number) =>
    delta > 0
      ? `${what}: refund ditambah ${delta} poin (${now})`
      : `${what}: refund ditarik kembali ${-delta} poin (${now})`;
}

/** Sets the numbers' statuses, one statement per status. */
async function setStatuses(
  trx: Trx,
  blastId: string,
  entries: (readonly [number, NumberStatus])[],
) {
  for (const [status, group] of groupBy(entries, ([, s]) => s)) {
    await trx
      .updateTable('blast_numbers')
      .set({ status })
      .where('blast_id', '=', blastId)
      .where(
        'idx',
        'in',
        group.map(([idx]) => idx),
      )
      .execute();
  }
}

async function recount(trx: Trx, blastId: string) {
  const groups = await trx
    .selectFrom('blast_numbers')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .where('blast_id', '=', blastId)
    .groupBy('status')
    .execute();
  const of = (status: NumberStatus) => Number(groups.find((g) => g.status === status)?.n ?? 0);
  return { successful_count: of('success'), failed_count: of('failed'), no_wa_count: of('no_wa') };
}

export async function submitResult(
  database: DbHandle,
  actorId: string,
  id: string,
  input: BlastResultInput,
) {
  await transact(database, async (trx) => {
    const blast = await lockBlast(database, trx, id);
    const closed = CLOSED_MESSAGE[blast.status];
    if (closed) throw conflict(closed);
    const sum = input.successful_count + input.failed_count + input.no_wa_count;
    if (sum > blast.total_numbers)
      throw new HttpError(422, resultSumMessage(sum, blast.total_numbers));
    if (sum <= 0) throw new HttpError(422, 'Total hasil harus lebih dari 0');
    // The rule lives in common/ (resultStatuses); only the numbers it changes are written.
    const saved = await trx
      .selectFrom('blast_numbers')
      .select('status')
      .where('blast_id', '=', id)
      .orderBy('idx')
      .execute();
    const statuses = resultStatuses(
      saved.map((row) => row.status),
      input,
    );
    const changed = statuses.flatMap((status, idx) =>
      status === saved[idx]!.status ? [] : [[idx, status] as const],
    );
    await setStatuses(trx, id, changed);
    const refund = input.failed_count + input.no_wa_count;
    await settleRefund(
      database.engine,
      trx,
      blast,
      refund,
      blast.status === 'completed'
        ? correction('Koreksi hasil blast', input)
        : () => `Refund blast: ${input.failed_count} gagal, ${input.no_wa_count} tanpa WhatsApp`,
    );
    await trx
      .updateTable('blasts')
      .set({
        successful_count: input.successful_count,
        failed_count: input.failed_count,
        no_wa_count: input.no_wa_count,
        refund_points: refund,
        admin_notes: input.admin_notes,
        status: 'completed',
        processed_at: now(),
      })
      .where('id', '=', id)
      .execute();
    await writeAll(database.engine, trx, countBlast(blast, blast.status, 'completed'));
    await recordAudit(trx, {
      actorId,
      action: blast.status === 'completed' ? 'blast.result_edit' : 'blast.result',
      targetType: 'blast',
      targetId: id,
      before: { status: blast.status, refund_points: blast.refund_points },
      after: { ...input, refund_points: refund },
    });
  });
  return getBlast(database, id);
}

export async function saveNumberStatuses(
  database: DbHandle,
  actorId: string,
  id: string,
  changes: Record<string, NumberStatus>,
) {
  const entries = Object.entries(changes).map(([idx, status]) => [Number(idx), status] as const);
  if (entries.length === 0) throw new HttpError(422, 'Tidak ada perubahan status untuk disimpan');
  await transact(database, async (trx) => {
    const blast = await lockBlast(database, trx, id);
    const closed = CLOSED_MESSAGE[blast.status];
    if (closed) throw conflict(closed);
    if (entries.some(([idx]) => idx >= blast.total_numbers))
      throw new HttpError(422, 'Indeks nomor di luar jangkauan');
    await setStatuses(trx, id, entries);
    const counts = await recount(trx, id);
    const completed = blast.status === 'completed';
    const refund = completed ? counts.failed_count + counts.no_wa_count : 0;
    if (completed)
      await settleRefund(
        database.engine,
        trx,
        blast,
        refund,
        correction('Koreksi status per nomor', counts),
      );
    await trx
      .updateTable('blasts')
      .set({ ...counts, refund_points: refund })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      actorId,
      action: 'blast.number_statuses',
      targetType: 'blast',
      targetId: id,
      before: { refund_points: blast.refund_points },
      after: { changes, ...counts, refund_points: refund },
    });
  });
  return getBlast(database, id);
}

/** Admin reject or client cancel of a pending blast: every point comes back. */
export async function closeBlast(
  database: DbHandle,
  actorId: string,
  id: string,
  outcome: 'rejected' | 'cancelled',
  ownerId?: string,
) {
  await transact(database, async (trx) => {
    const blast = await lockBlast(database, trx, id, ownerId);
    if (blast.status !== 'pending')
      throw conflict('Hanya blast yang masih menunggu yang dapat dibatalkan atau ditolak');
    const description =
      outcome === 'rejected'
        ? 'Refund penuh: blast ditolak admin'
        : 'Refund penuh: blast dibatalkan';
    await settleRefund(database.engine, trx, blast, blast.points_used, () => description);
    await trx
      .updateTable('blasts')
      .set({ status: outcome, refund_points: blast.points_used, processed_at: now() })
      .where('id', '=', id)
      .execute();
    await writeAll(database.engine, trx, countBlast(blast, 'pending', outcome));
    await recordAudit(trx, {
      actorId,
      action: `blast.${outcome}`,
      targetType: 'blast',
      targetId: id,
    });
  });
  return getBlast(database, id, ownerId);
}

/** Idempotency keys are kept 48 hours (DESIGN asks for at least 24). */
export const IDEMPOTENCY_TTL_MS = 48 * 60 * 60 * 1000;

export async function purgeIdempotencyKeys({ db }: DbHandle, at = new Date()): Promise<void> {
  const cutoff = new Date(at.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
}
