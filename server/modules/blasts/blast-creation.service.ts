// A blast's creation: the message or template checked, the numbers normalised and de-duplicated,
// one debit for the unique numbers not on the opt-out list, the blast and its numbers (queued for
// the engine in Cloud API and gateway mode) in the same transaction, and the idempotency key.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import {
  BLAST_MESSAGES,
  sentByEngine,
  type BlastDetail,
  type BlastTemplate,
  type CreateBlast,
  type NumberStatus,
} from '#common/blasts.ts';
import {
  parametersByName,
  recipientText,
  HEADER_IMAGE_TYPES,
  TEMPLATE_MESSAGES,
  templateValuesProblem,
} from '#common/templates.ts';
import { spintaxProblem } from '#common/spintax.ts';
import { formatNumber } from '#common/format.ts';
import { analyzeNumbers } from '#common/phone.ts';
import { OPT_OUT_MESSAGES } from '#common/opt-outs.ts';
import { listRows, now, type DbHandle } from '#server/db/connection.ts';
import type { DeliveryMode } from '#common/delivery.ts';
import type { BlastsTable } from '#server/db/schema.ts';
import { countRow } from '#server/db/summary-counts.ts';
import { transact, type Tx } from '#server/db/transaction.ts';
import { HttpError } from '#server/plugins/errors.ts';
import { applyPoints, holdClient } from '#server/modules/points/ledger.ts';
import { readSettings } from '#server/modules/settings/settings.service.ts';
import { findUpload, IMAGES_OFF } from '#server/modules/uploads/uploads.service.ts';
import { readDeliveryMode } from '#server/modules/delivery/delivery.service.ts';
import { clientTemplate, notOfferedReason } from '#server/modules/delivery/templates.service.ts';
import { withoutOptedOut } from '#server/modules/opt-outs/opt-outs.service.ts';
import { blastHold } from '#server/modules/delivery/blast-hold.ts';
import { withDetail, type NumberRow } from './blasts.service.ts';

const PENDING: NumberStatus = 'pending';

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
      ...withDetail({ ...row, username: owner.username }, newNumberRows(numbers, queued)),
      ...(await blastHold(tx.db, row, queued === null ? 0 : count)),
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

/** Idempotency keys are kept 48 hours (DESIGN asks for at least 24). */
export const IDEMPOTENCY_TTL_MS = 48 * 60 * 60 * 1000;

export async function purgeIdempotencyKeys({ db }: DbHandle, at = new Date()): Promise<void> {
  const cutoff = new Date(at.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
}
