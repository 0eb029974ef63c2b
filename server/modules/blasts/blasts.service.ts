// Blasts: creation with its single debit, results and per-number statuses with refunds settled
// as differences, and the admin's reject and the client's cancel with a full refund.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import {
  BLAST_MESSAGES,
  CHANNEL_NAMES,
  channelName,
  resultStatuses,
  sentByEngine,
  resultSumMessage,
  type Blast,
  type BlastDetail,
  type BlastNumber,
  type BlastPage,
  type BlastResultInput,
  type BlastStatus,
  type BlastTemplate,
  type CreateBlast,
  type NumberDelivery,
  type NumberStatus,
} from '#common/blasts.ts';
import type { DeliveryMode } from '#common/delivery.ts';
import {
  parametersByName,
  recipientText,
  HEADER_IMAGE_TYPES,
  TEMPLATE_MESSAGES,
  templateValuesProblem,
} from '#common/templates.ts';
import { sendingWindow } from '#common/sending-hours.ts';
import { spintaxProblem } from '#common/spintax.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import type { PageQuery } from '#common/pagination.ts';
import { formatNumber } from '#common/format.ts';
import { groupBy } from '#common/collections.ts';
import { analyzeNumbers } from '#common/phone.ts';
import { OPT_OUT_MESSAGES } from '#common/opt-outs.ts';
import { listRows, now, orderedList, type Db, type DbHandle } from '#server/db/connection.ts';
import { pageWindow, windowIds, type PageWindow } from '#server/db/pages.ts';
import type { BlastNumbersTable, BlastsTable } from '#server/db/schema.ts';
import { countRow, readCounts } from '#server/db/summary-counts.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
import { conflict, HttpError, notFound } from '#server/plugins/errors.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { applyPoints, holdClient } from '#server/modules/points/ledger.ts';
import { readSettings } from '#server/modules/settings/settings.service.ts';
import { findUpload, IMAGES_OFF } from '#server/modules/uploads/uploads.service.ts';
import { readDeliveryMode } from '#server/modules/delivery/delivery.service.ts';
import { clientTemplate, notOfferedReason } from '#server/modules/delivery/templates.service.ts';
import { withoutOptedOut } from '#server/modules/opt-outs/opt-outs.service.ts';

type BlastRow = BlastsTable & { username: string };

const PENDING: NumberStatus = 'pending';

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

type NumberRow = Omit<BlastNumbersTable, 'blast_id' | 'next_attempt_at' | 'claimed_at' | 'device'>;

/** A number's delivery as answered: null in manual mode. */
function deliveryOf(row: NumberRow): NumberDelivery | null {
  if (row.state === null) return null;
  return {
    state: row.state,
    provider_message_id: row.provider_message_id,
    error_code: row.error_code,
    error_title: row.error_title,
    // Meta's code in the client's words; a failure of Sebar's own (a cancel) carries its words.
    reason: row.error_code === null ? row.error_title : errorMeaning(row.error_code).reason,
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
  return { ...withDetail(row, rows), resumes_at: await resumesAt(db, row) };
}

/** When a pending gateway blast goes on, if the gateway's sending hours are closed now. */
async function resumesAt(db: Db, blast: { delivery_mode: string; status: string }) {
  if (blast.delivery_mode !== 'gateway' || blast.status !== 'pending') return null;
  const settings = await db
    .selectFrom('gateway_settings')
    .select('sending_hours')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!settings) return null;
  const window = sendingWindow(settings.sending_hours, Date.now());
  return window.open ? null : new Date(window.opensAt).toISOString();
}

function withDetail(row: BlastRow, rows: NumberRow[]): Omit<BlastDetail, 'resumes_at'> {
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

/** Why a blast may not carry the image at `url` now, or null (it may). */
async function imageRefusal(
  db: DbHandle['db'],
  url: string,
  userId: string,
  template: BlastTemplate | null,
) {
  if (!(await readSettings(db)).allow_images) return IMAGES_OFF;
  const upload = await findUpload(db, url, 'image', userId);
  if (!upload) return 'Gambar tidak ditemukan. Upload ulang gambar Anda.';
  if (template && !HEADER_IMAGE_TYPES.includes(upload.mime)) return TEMPLATE_MESSAGES.imageType;
  return null;
}

export const IDEMPOTENCY_MISMATCH = 'Idempotency-Key sudah dipakai untuk permintaan yang berbeda';

interface Idempotency {
  key: string;
  requestHash: string;
}

/**
 * Claims the idempotency key with the new blast's answer, serialised; a concurrent holder of the
 * key makes this wait. Answers the stored blast when the key was already used for this request.
 */
async function claimKey(tx: Tx, { key, requestHash }: Idempotency, blast: BlastDetail) {
  const claimed = await tx.db
    .insertInto('idempotency_keys')
    .values({
      user_id: blast.user_id,
      key,
      request_hash: requestHash,
      status_code: 201,
      response_body: JSON.stringify(blast),
      created_at: blast.created_at,
    })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .executeTakeFirst();
  if (claimed.numInsertedOrUpdatedRows) return null;
  const stored = await tx.db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response_body'])
    .where('user_id', '=', blast.user_id)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (stored.request_hash !== requestHash) throw new HttpError(422, IDEMPOTENCY_MISMATCH);
  // An answer stored before the count existed (migration 014) has none: none was left out.
  const answer = JSON.parse(stored.response_body) as Omit<BlastDetail, 'opted_out_count'> &
    Partial<BlastDetail>;
  return { ...answer, opted_out_count: answer.opted_out_count ?? 0 };
}

/** A new blast's row: pending, charged one point per unique number not on the opt-out list. */
function newBlastRow(
  userId: string,
  input: { message: string; image_url: string | null },
  mode: DeliveryMode,
  template: BlastTemplate | null,
  { count, optedOut }: { count: number; optedOut: number },
): BlastsTable {
  return {
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
    delivery_mode: mode,
    template: template && JSON.stringify(template),
    media_id: null,
    media_uploaded_at: null,
    opted_out_count: optedOut,
  };
}

/**
 * What the blast sends in the current mode: in manual mode the client's message; in gateway mode
 * the client's message as typed, its spintax checked (each number gets its own rendering when
 * sent, decision 213); in Cloud API mode an enabled template with valid parameters, whose
 * rendered text is the stored message.
 */
async function messageOf(
  db: DbHandle['db'],
  mode: DeliveryMode,
  input: CreateBlast,
): Promise<{ message: string; template: BlastTemplate | null }> {
  if (mode === 'manual' || mode === 'gateway') {
    if (input.template_id !== undefined || input.parameters !== undefined)
      throw new HttpError(422, TEMPLATE_MESSAGES.manualOnly);
    if (input.message === undefined) throw new HttpError(422, BLAST_MESSAGES.emptyMessage);
    const problem = mode === 'gateway' ? spintaxProblem(input.message) : null;
    if (problem) throw new HttpError(422, problem);
    return { message: input.message, template: null };
  }
  if (input.template_id === undefined) throw new HttpError(422, TEMPLATE_MESSAGES.choose);
  const template = await clientTemplate(db, input.template_id);
  if (!template) throw new HttpError(422, await notOfferedReason(db, input.template_id));
  const values = parametersByName(input.parameters);
  const problem = templateValuesProblem(template, values);
  if (problem) throw new HttpError(422, problem);
  const headerFormat = template.header?.format ?? null;
  if (headerFormat === 'IMAGE' && input.image_url === null)
    throw new HttpError(422, TEMPLATE_MESSAGES.needsImage);
  if (headerFormat !== 'IMAGE' && input.image_url !== null)
    throw new HttpError(422, TEMPLATE_MESSAGES.noImage);
  return {
    message: recipientText(template, values),
    template: {
      id: template.id,
      name: template.name,
      language: template.language,
      header_format: headerFormat,
      parameters: values,
    },
  };
}

/** What an idempotency key is bound to: the same request gives the same hash. */
function requestHash(input: CreateBlast): string {
  const fields: unknown[] = [input.message, input.target_numbers, input.image_url];
  if (input.template_id !== undefined) fields.push(input.template_id, input.parameters ?? null);
  return crypto.createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * Creates a blast and charges its unique valid numbers not on the opt-out list, once (the answer
 * says how many were left out; all of them refuses the blast); in Cloud API and gateway mode its
 * numbers are queued for the delivery engine in the same transaction (the outbox, decision 204). With an
 * idempotency key, the answer is stored with the key, and every retry of the same request gets it.
 */
export async function createBlast(
  database: DbHandle,
  userId: string,
  input: CreateBlast,
  idempotencyKey: string | null,
): Promise<BlastDetail> {
  // SPEC's order: the message (or the template) before the numbers.
  const mode = await readDeliveryMode(database.db);
  const { message, template } = await messageOf(database.db, mode, input);
  const analysis = analyzeNumbers(input.target_numbers);
  if (analysis.invalid.length > 0)
    throw new HttpError(422, BLAST_MESSAGES.invalid(analysis.invalid.length));
  const imageRefused =
    input.image_url === null
      ? null
      : await imageRefusal(database.db, input.image_url, userId, template);
  return transact(database, async (tx) => {
    const owner = await holdClient(tx, userId);
    // Numbers on the opt-out list are left out before the price: the client pays for the rest.
    const { kept: numbers, optedOut } = await withoutOptedOut(tx, analysis.unique);
    const count = numbers.length;
    const row = newBlastRow(userId, { message, image_url: input.image_url }, mode, template, {
      count,
      optedOut,
    });
    // The engine's numbers (Cloud API, gateway) are queued now, due at once; manual ones have no
    // delivery.
    const queued = sentByEngine(mode) ? row.created_at : null;
    const blast = {
      resumes_at: await resumesAt(tx.db, row),
      ...withDetail({ ...row, username: owner.username }, newNumberRows(numbers, queued)),
    };
    if (idempotencyKey) {
      const stored = await claimKey(
        tx,
        { key: idempotencyKey, requestHash: requestHash(input) },
        blast,
      );
      if (stored) return stored;
    }
    // After the key's claim: a retry of a blast made while images were allowed, or before its
    // numbers opted out, gets that blast.
    if (imageRefused) throw new HttpError(422, imageRefused);
    if (count === 0) throw new HttpError(422, OPT_OUT_MESSAGES.allOptedOut(optedOut));
    await applyPoints(
      tx,
      {
        userId,
        type: 'usage',
        delta: -count,
        description: `Blast WhatsApp ke ${formatNumber(count)} nomor`,
        blastId: row.id,
      },
      (points) => `${BLAST_MESSAGES.notEnoughTitle}: ${BLAST_MESSAGES.notEnough(count, points)}`,
    );
    await insertBlast(tx, row, numbers, queued);
    return blast;
  });
}

/** A new blast's numbers: pending, and queued at `queuedAt` when the engine sends them. */
function newNumberRows(numbers: string[], queuedAt: string | null): NumberRow[] {
  return numbers.map((number, idx) => ({
    idx,
    number,
    status: PENDING,
    state: queuedAt === null ? null : 'queued',
    attempts: 0,
    provider_message_id: null,
    error_code: null,
    error_title: null,
    queued_at: queuedAt,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    failed_at: null,
  }));
}

/** Writes a new blast's row, its count and its numbers (due at once when queued). */
async function insertBlast(tx: Tx, row: BlastsTable, numbers: string[], queuedAt: string | null) {
  const state = queuedAt === null ? null : 'queued';
  await tx.db.insertInto('blasts').values(row).execute();
  await countRow(tx, row.user_id, 'blasts', null, 'pending');
  await tx.db
    .insertInto('blast_numbers')
    .columns(['blast_id', 'idx', 'number', 'status', 'state', 'queued_at', 'next_attempt_at'])
    .expression(
      sql`select ${row.id}, idx, value, ${PENDING}, ${state}, ${queuedAt}, ${queuedAt}
        from ${listRows(tx.engine, numbers)}`,
    )
    .execute();
}

/** Locks a blast for a change (its client's row first on PostgreSQL); 404 when it is not there. */
export async function lockBlast(tx: Tx, id: string, ownerId?: string) {
  let query = tx.db.selectFrom('blasts').selectAll().where('id', '=', id);
  if (ownerId) query = query.where('user_id', '=', ownerId);
  if (tx.engine === 'postgres') {
    // The client's row first, as a client's deletion locks it first: the two never deadlock.
    const found = await query.executeTakeFirst();
    if (!found) throw notFound('Blast request');
    await holdClient(tx, found.user_id, 'Blast request');
  }
  const blast = await forUpdate(tx, query).executeTakeFirst();
  if (!blast) throw notFound('Blast request');
  return blast;
}

const CLOSED_MESSAGE: Record<string, string> = {
  rejected: BLAST_MESSAGES.rejected,
  cancelled: BLAST_MESSAGES.cancelled,
};

/** Why the admin may not type an engine-sent blast's results, naming its channel. */
export const deliveredByEngine = (channel: string) =>
  `Hasil blast ini dicatat otomatis dari pengiriman ${channel} dan tidak diinput manual`;
export const DELIVERED_BY_ENGINE = deliveredByEngine(CHANNEL_NAMES.cloud_api);

/** The admin's results are typed for a manual blast only, and not once it is closed. */
function refuseResultEntry(blast: BlastsTable) {
  const closed = CLOSED_MESSAGE[blast.status];
  if (closed) throw conflict(closed);
  const channel = channelName(blast.delivery_mode);
  if (channel !== null) throw conflict(deliveredByEngine(channel));
}

/**
 * Moves the blast's refund to `target`, crediting or taking back only the difference, described
 * by `describe` of that difference.
 */
async function settleRefund(
  tx: Tx,
  blast: BlastsTable,
  target: number,
  describe: (delta: number) => string,
) {
  const delta = target - blast.refund_points;
  await applyPoints(
    tx,
    {
      userId: blast.user_id,
      type: 'refund',
      delta,
      description: describe(delta),
      blastId: blast.id,
    },
    BLAST_MESSAGES.takeBackFailed,
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
async function setStatuses(tx: Tx, blastId: string, entries: (readonly [number, NumberStatus])[]) {
  for (const [status, group] of groupBy(entries, ([, s]) => s)) {
    await tx.db
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

async function recount(tx: Tx, blastId: string) {
  const groups = await tx.db
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
  await transact(database, async (tx) => {
    const blast = await lockBlast(tx, id);
    refuseResultEntry(blast);
    const sum = input.successful_count + input.failed_count + input.no_wa_count;
    // Over the total or nothing at all is refused with the form's own message.
    if (sum > blast.total_numbers || sum <= 0)
      throw new HttpError(422, resultSumMessage(sum, blast.total_numbers));
    // The rule lives in common/ (resultStatuses); only the numbers it changes are written.
    const saved = await tx.db
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
    await setStatuses(tx, id, changed);
    const refund = input.failed_count + input.no_wa_count;
    await settleRefund(
      tx,
      blast,
      refund,
      blast.status === 'completed'
        ? correction('Koreksi hasil blast', input)
        : () => `Refund blast: ${input.failed_count} gagal, ${input.no_wa_count} tanpa WhatsApp`,
    );
    await tx.db
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
    await countRow(tx, blast.user_id, 'blasts', blast.status, 'completed');
    await recordAudit(tx.db, {
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
  await transact(database, async (tx) => {
    const blast = await lockBlast(tx, id);
    refuseResultEntry(blast);
    if (entries.some(([idx]) => idx >= blast.total_numbers))
      throw new HttpError(422, 'Indeks nomor di luar jangkauan');
    await setStatuses(tx, id, entries);
    const counts = await recount(tx, id);
    const completed = blast.status === 'completed';
    const refund = completed ? counts.failed_count + counts.no_wa_count : 0;
    if (completed)
      await settleRefund(tx, blast, refund, correction('Koreksi status per nomor', counts));
    await tx.db
      .updateTable('blasts')
      .set({ ...counts, refund_points: refund })
      .where('id', '=', id)
      .execute();
    await recordAudit(tx.db, {
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

/** Why an engine's number was never sent: the blast was closed while it waited. */
const CLOSED_BEFORE_SENDING: Record<'rejected' | 'cancelled', string> = {
  rejected: 'Blast ditolak admin sebelum nomor ini dikirim',
  cancelled: 'Blast dibatalkan sebelum nomor ini dikirim',
};

/** Fails the numbers still waiting to be sent, with the reason; answers the blast's counts. */
async function stopSending(tx: Tx, id: string, outcome: 'rejected' | 'cancelled') {
  await tx.db
    .updateTable('blast_numbers')
    .set({
      state: 'failed',
      status: 'failed',
      failed_at: now(),
      error_title: CLOSED_BEFORE_SENDING[outcome],
      next_attempt_at: null,
    })
    .where('blast_id', '=', id)
    .where('state', '=', 'queued')
    .execute();
  return recount(tx, id);
}

/**
 * Admin reject or client cancel of a pending blast. A manual blast gets every point back. An
 * engine-sent blast (Cloud API, gateway) stops sending: its numbers still waiting fail with the reason and are refunded with
 * those already failed; numbers already on their way settle as their outcomes arrive.
 */
export async function closeBlast(
  database: DbHandle,
  actorId: string,
  id: string,
  outcome: 'rejected' | 'cancelled',
  ownerId?: string,
) {
  await transact(database, async (tx) => {
    const blast = await lockBlast(tx, id, ownerId);
    if (blast.status !== 'pending') throw conflict(BLAST_MESSAGES.notPending);
    const counts = sentByEngine(blast.delivery_mode) ? await stopSending(tx, id, outcome) : null;
    const refund = counts ? counts.failed_count + counts.no_wa_count : blast.points_used;
    const description = counts
      ? `Refund: blast ${outcome === 'rejected' ? 'ditolak admin' : 'dibatalkan'}, ${refund} nomor tidak terkirim`
      : outcome === 'rejected'
        ? 'Refund penuh: blast ditolak admin'
        : 'Refund penuh: blast dibatalkan';
    await settleRefund(tx, blast, refund, () => description);
    await tx.db
      .updateTable('blasts')
      .set({ ...counts, status: outcome, refund_points: refund, processed_at: now() })
      .where('id', '=', id)
      .execute();
    await countRow(tx, blast.user_id, 'blasts', 'pending', outcome);
    await recordAudit(tx.db, {
      actorId,
      action: `blast.${outcome}`,
      targetType: 'blast',
      targetId: id,
    });
  });
  await sendsAnswered(database, id);
  return getBlast(database, id, ownerId);
}

/**
 * Waits (a few seconds at most) until no number of the blast is on its way: a send a worker
 * started before the close is answered before the close is, so nothing leaves after it.
 */
async function sendsAnswered({ db }: DbHandle, id: string, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const sending = await db
      .selectFrom('blast_numbers')
      .select('idx')
      .where('blast_id', '=', id)
      .where('state', '=', 'sending')
      .limit(1)
      .executeTakeFirst();
    if (!sending) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Brings an engine-sent blast (Cloud API, gateway) up to date with its numbers' statuses (the delivery engine calls it
 * after any change, in the same transaction): the counts follow the statuses; the blast is
 * completed once no number is pending, its failed and no-WhatsApp numbers refunded once; a change
 * after that (a late failure, the last outcomes of a cancelled blast) moves the refund by its
 * difference, as a re-edit does.
 */
export async function settleDelivery(tx: Tx, blastId: string): Promise<void> {
  const blast = await lockBlast(tx, blastId);
  const counts = await recount(tx, blastId);
  const refund = counts.failed_count + counts.no_wa_count;
  const done = counts.successful_count + refund === blast.total_numbers;
  if (blast.status === 'pending' && !done) {
    await tx.db.updateTable('blasts').set(counts).where('id', '=', blastId).execute();
    return;
  }
  if (blast.status === 'pending') {
    await settleRefund(
      tx,
      blast,
      refund,
      () => `Refund blast: ${counts.failed_count} gagal, ${counts.no_wa_count} tanpa WhatsApp`,
    );
    await tx.db
      .updateTable('blasts')
      .set({ ...counts, refund_points: refund, status: 'completed', processed_at: now() })
      .where('id', '=', blastId)
      .execute();
    await countRow(tx, blast.user_id, 'blasts', 'pending', 'completed');
    return;
  }
  if (refund !== blast.refund_points)
    await settleRefund(tx, blast, refund, correction('Koreksi hasil pengiriman', counts));
  await tx.db
    .updateTable('blasts')
    .set({ ...counts, refund_points: refund })
    .where('id', '=', blastId)
    .execute();
}

/** Idempotency keys are kept 48 hours (DESIGN asks for at least 24). */
export const IDEMPOTENCY_TTL_MS = 48 * 60 * 60 * 1000;

export async function purgeIdempotencyKeys({ db }: DbHandle, at = new Date()): Promise<void> {
  const cutoff = new Date(at.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
}
