// The delivery engine's work in the database (decision 204): Cloud API numbers are the outbox.
// Workers claim due numbers at the pace of all workers together, record what each send came to,
// move numbers forward by the statuses their webhooks report (cloud-api-events.ts and
// gateway-events.ts read those), and settle the blasts through the blast service.
import type { BlastTemplate } from '#common/blasts.ts';
import { groupBy } from '#common/collections.ts';
import {
  applyStatus,
  numberStatusOf,
  type DeliveryTrack,
  type ReportedStatus,
} from '#common/delivery-states.ts';
import { errorMeaning, failedStatus } from '#common/whatsapp-errors.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import { isoAt, now, type DbHandle } from '#server/db/connection.ts';
import type { BlastNumbersTable, Database, DeliveryEngineTable } from '#server/db/schema.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
import { lockBlast, settleDelivery } from '#server/modules/blasts/blast-settlement.service.ts';
import { applyTemplateRefusal, heldUntil, refusalNamesTemplate } from './templates.service.ts';

/** How the engine paces and retries; the defaults are Meta's, tests shorten them. */
export interface Pacing {
  messagesPerSecond: number;
  /** Unique recipients in a moving 24 hours; null: no limit. */
  dailyRecipientLimit: number | null;
  /** The least time between two sends to the same recipient (Meta's pair rate, 131056). */
  recipientGapMs: number;
  /**
   * How far ahead one claim takes send slots. The next claim comes when half of it is left, so a
   * claim step shorter than that never leaves a slot unused.
   */
  claimWindowMs: number;
}

export interface Retrying {
  /** The wait before the first retry; each further retry waits twice as long. */
  retryBaseMs: number;
  maxAttempts: number;
  /** How long a restricted sender (368, 131048) waits before the engine tries again by itself. */
  pauseMs: number;
}

/** A number taken to send now, with what its message needs. */
export interface Claimed {
  blastId: string;
  idx: number;
  number: string;
  template: BlastTemplate;
  imageUrl: string | null;
  mediaId: string | null;
  /** Its send slot (epoch ms): it is posted then, not before. */
  sendAt: number;
}

/** What one send came to. */
export type SendOutcome =
  | { kind: 'accepted'; wamid: string }
  /** Meta answered an error: nothing was sent. */
  | { kind: 'refused'; code: number | null; title: string | null }
  /** No connection was made: nothing was sent. */
  | { kind: 'unreachable' }
  /** The answer never came: the message may have been sent; a webhook will say. */
  | { kind: 'unknown' }
  /** Checked before sending: the number is not on WhatsApp (the gateway's check). */
  | { kind: 'not_on_whatsapp' }
  /** The sending device is held (a gateway device restricted or gone): another one sends it. */
  | { kind: 'held'; code: number | null; title: string };

export interface SendResult {
  blastId: string;
  idx: number;
  outcome: SendOutcome;
  at: string;
}

/** The key a message carries in `biz_opaque_callback_data`: its blast and index. */
export const callbackKey = (blastId: string, idx: number) => `${blastId}/${idx}`;

/** The blast and index in a send's callback key, or null when it is not one of Sebar's. */
export function parseCallbackKey(key: unknown): { blastId: string; idx: number } | null {
  if (typeof key !== 'string') return null;
  const match = /^([0-9a-f-]{36})\/(\d{1,3})$/.exec(key);
  return match ? { blastId: match[1]!, idx: Number(match[2]) } : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The engine's row, made running when it does not exist yet, and locked. */
async function holdEngine(tx: Tx, at: string): Promise<DeliveryEngineTable> {
  await tx.db
    .insertInto('delivery_engine')
    .values({
      id: 1,
      state: 'running',
      reason: null,
      error_code: null,
      since: at,
      resume_at: null,
      next_slot_at: at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return forUpdate(
    tx,
    tx.db.selectFrom('delivery_engine').selectAll().where('id', '=', 1),
  ).executeTakeFirstOrThrow();
}

/** Whether some queued number of a blast sent by `mode` is due: a cheap look before a claim. */
export async function anyDue(
  { db }: DbHandle,
  mode: 'cloud_api' | 'gateway',
  at = Date.now(),
): Promise<boolean> {
  const row = await db
    .selectFrom('blast_numbers as n')
    .innerJoin('blasts as b', 'b.id', 'n.blast_id')
    .select('n.idx')
    .where('n.state', '=', 'queued')
    .where('n.next_attempt_at', '<=', isoAt(at))
    .where('b.delivery_mode', '=', mode)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the numbers to send next, each with its own send slot. Claims queue on the engine's row,
 * which holds the next free slot: a claim takes the slots from there (or from now, when it is
 * past: a stalled worker's slots are not made up) up to `claimWindowMs` ahead, one
 * `1000 / messagesPerSecond` apart, and moves the slot. So all workers together never have more
 * than `messagesPerSecond` slots in any second. A number sent to within the gap, or a new
 * recipient over the daily limit, waits. Answers the numbers (marked sending) and when to claim
 * again (ms).
 */
export async function claimDue(
  database: DbHandle,
  pacing: Pacing,
  at = Date.now(),
): Promise<{ claimed: Claimed[]; waitMs: number }> {
  return transact(database, async (tx) => {
    const engine = await holdEngine(tx, isoAt(at));
    if (!(await runsAt(tx, engine, at))) return { claimed: [], waitMs: Infinity };
    const slots = freeSlots(engine, pacing, at);
    if ('waitMs' in slots) return { claimed: [], waitMs: slots.waitMs };
    const candidates = await tx.db
      .selectFrom('blast_numbers as n')
      .innerJoin('blasts as b', 'b.id', 'n.blast_id')
      .select([
        'n.blast_id',
        'n.idx',
        'n.number',
        'b.template',
        'b.image_url',
        'b.media_id',
        'b.media_uploaded_at',
      ])
      .where('b.delivery_mode', '=', 'cloud_api')
      .where('n.state', '=', 'queued')
      .where('n.next_attempt_at', '<=', isoAt(at))
      .orderBy('n.next_attempt_at')
      .orderBy('n.blast_id')
      .orderBy('n.idx')
      .limit(slots.room * 2)
      .execute();
    const chosen = await withinLimits(tx, candidates, pacing, at);
    for (const [when, rows] of groupBy(chosen.later, (row) => row.until)) {
      await updateNumbers(tx, rows, { next_attempt_at: isoAt(when) });
    }
    const out = await markSending(tx, chosen.take.slice(0, slots.room), at);
    const nextSlot = slots.start + Math.max(out.length, 1) * slots.interval;
    await tx.db
      .updateTable('delivery_engine')
      .set({ next_slot_at: isoAt(nextSlot) })
      .where('id', '=', 1)
      .execute();
    return {
      claimed: out.map((row, i) => ({
        blastId: row.blast_id,
        idx: row.idx,
        number: row.number,
        template: JSON.parse(row.template ?? '{}') as BlastTemplate,
        imageUrl: row.image_url,
        mediaId: freshMediaId(row, at),
        sendAt: slots.start + i * slots.interval,
      })),
      waitMs: out.length ? claimAgainIn(nextSlot, pacing) : Infinity,
    };
  });
}

/** The wait until half a claim window of slots is left before `nextSlot`. */
const claimAgainIn = (nextSlot: number, pacing: Pacing, now = Date.now()) =>
  Math.max(0, nextSlot - pacing.claimWindowMs / 2 - now);

/** Whether the engine sends at `at`: running, or paused until a time now past (it resumes). */
async function runsAt(tx: Tx, engine: DeliveryEngineTable, at: number): Promise<boolean> {
  if (engine.state === 'paused' && engine.resume_at && engine.resume_at <= isoAt(at)) {
    await tx.db
      .updateTable('delivery_engine')
      .set({ state: 'running', reason: null, error_code: null, since: isoAt(at), resume_at: null })
      .where('id', '=', 1)
      .execute();
    return true;
  }
  return engine.state === 'running';
}

/**
 * The send slots a claim at `at` may take: from the next free one, or from `at` when that is past,
 * up to `claimWindowMs` ahead; or how long to wait while more than half a window is taken.
 */
function freeSlots(
  engine: DeliveryEngineTable,
  pacing: Pacing,
  at: number,
): { start: number; interval: number; room: number } | { waitMs: number } {
  const interval = 1000 / pacing.messagesPerSecond;
  const start = Math.max(Date.parse(engine.next_slot_at), at);
  const waitMs = claimAgainIn(start, pacing, at);
  if (waitMs > 0) return { waitMs };
  return { start, interval, room: Math.ceil((at + pacing.claimWindowMs - start) / interval) };
}

/** A number taken to send at `at`: sending, one attempt more, no longer due. */
export const claimedAt = (eb: ExpressionBuilder<Database, 'blast_numbers'>, at: number) => ({
  state: 'sending' as const,
  attempts: eb('attempts', '+', 1),
  claimed_at: isoAt(at),
  next_attempt_at: null,
});

/**
 * Marks the numbers sending (one attempt more), those still queued only, and records the send
 * time of their recipients; answers the numbers marked.
 */
async function markSending<T extends Candidate>(tx: Tx, taken: T[], at: number): Promise<T[]> {
  const claimed: { blast_id: string; idx: number }[] = [];
  for (const [blastId, rows] of groupBy(taken, (row) => row.blast_id)) {
    const marked = await tx.db
      .updateTable('blast_numbers')
      .set((eb) => claimedAt(eb, at))
      .where('blast_id', '=', blastId)
      .where(
        'idx',
        'in',
        rows.map((row) => row.idx),
      )
      .where('state', '=', 'queued')
      .returning(['blast_id', 'idx'])
      .execute();
    claimed.push(...marked);
  }
  const sent = new Set(claimed.map((row) => callbackKey(row.blast_id, row.idx)));
  const out = taken.filter((row) => sent.has(callbackKey(row.blast_id, row.idx)));
  if (out.length > 0) {
    const numbers = [...new Set(out.map((row) => row.number))];
    await tx.db
      .insertInto('delivery_recipients')
      .values(numbers.map((number) => ({ number, last_sent_at: isoAt(at) })))
      .onConflict((oc) => oc.column('number').doUpdateSet({ last_sent_at: isoAt(at) }))
      .execute();
  }
  return out;
}

type Candidate = { blast_id: string; idx: number; number: string };

/**
 * Splits the candidates into those that may go now and those that wait (until when): a recipient
 * sent to within the gap waits for its end; a new recipient over the daily limit waits an hour.
 */
async function withinLimits<T extends Candidate>(
  tx: Tx,
  candidates: T[],
  pacing: Pacing,
  at: number,
): Promise<{ take: T[]; later: (T & { until: number })[] }> {
  if (candidates.length === 0) return { take: [], later: [] };
  const last = new Map(
    (
      await tx.db
        .selectFrom('delivery_recipients')
        .select(['number', 'last_sent_at'])
        .where('number', 'in', [...new Set(candidates.map((c) => c.number))])
        .execute()
    ).map((row) => [row.number, Date.parse(row.last_sent_at)]),
  );
  let used = 0;
  if (pacing.dailyRecipientLimit !== null) {
    const row = await tx.db
      .selectFrom('delivery_recipients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('last_sent_at', '>', isoAt(at - DAY_MS))
      .executeTakeFirstOrThrow();
    used = Number(row.n);
  }
  const take: T[] = [];
  const later: (T & { until: number })[] = [];
  for (const candidate of candidates) {
    const previous = last.get(candidate.number);
    if (previous !== undefined && at - previous < pacing.recipientGapMs) {
      later.push({ ...candidate, until: previous + pacing.recipientGapMs });
      continue;
    }
    const known = previous !== undefined && at - previous < DAY_MS;
    if (!known && pacing.dailyRecipientLimit !== null && used >= pacing.dailyRecipientLimit) {
      later.push({ ...candidate, until: at + 60 * 60 * 1000 });
      continue;
    }
    if (!known) used += 1;
    last.set(candidate.number, at);
    take.push(candidate);
  }
  return { take, later };
}

/** Sets the same values on the numbers, a statement per blast (found by its primary key). */
async function updateNumbers(
  tx: Tx,
  rows: readonly { blast_id: string; idx: number }[],
  values: Partial<BlastNumbersTable>,
) {
  for (const [blastId, mine] of groupBy(rows, (row) => row.blast_id)) {
    await tx.db
      .updateTable('blast_numbers')
      .set(values)
      .where('blast_id', '=', blastId)
      .where(
        'idx',
        'in',
        mine.map((row) => row.idx),
      )
      .execute();
  }
}

/** The delivery columns a result or a status changes. */
const DELIVERY_COLUMNS = [
  'state',
  'status',
  'attempts',
  'provider_message_id',
  'error_code',
  'error_title',
  'sent_at',
  'delivered_at',
  'read_at',
  'failed_at',
  'next_attempt_at',
] as const satisfies readonly (keyof BlastNumbersTable)[];
const INTEGER_COLUMNS = new Set(['idx', 'attempts', 'error_code']);

/**
 * Writes each number's delivery columns as given, in one statement for many numbers (a VALUES
 * list joined on the primary key; on PostgreSQL its untyped values are text, hence the casts).
 */
async function writeDeliveries(tx: Tx, rows: readonly BlastNumbersTable[]) {
  const columns = ['blast_id', 'idx', ...DELIVERY_COLUMNS] as const;
  const value = (column: string) =>
    INTEGER_COLUMNS.has(column)
      ? sql`cast(${sql.ref(`v.${column}`)} as integer)`
      : sql.ref(`v.${column}`);
  for (let from = 0; from < rows.length; from += 500) {
    const values = rows
      .slice(from, from + 500)
      .map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`);
    await sql`
      with v (${sql.join(columns.map((column) => sql.ref(column)))}) as (values ${sql.join(values)})
      update blast_numbers
      set ${sql.join(DELIVERY_COLUMNS.map((column) => sql`${sql.ref(column)} = ${value(column)}`))}
      from v
      where blast_numbers.blast_id = v.blast_id and blast_numbers.idx = ${value('idx')}`.execute(
      tx.db,
    );
  }
}

type NumberRow = BlastNumbersTable;

/** The number's delivery as the state rule reads it. */
const trackOf = (row: NumberRow): DeliveryTrack => ({
  state: row.state ?? 'queued',
  error_code: row.error_code,
  sent_at: row.sent_at,
  delivered_at: row.delivered_at,
  read_at: row.read_at,
  failed_at: row.failed_at,
});

/** A change to one number's row, from its track and what else changed. */
function changeOf(track: DeliveryTrack, extra: Partial<NumberRow> = {}): Partial<NumberRow> {
  return {
    ...track,
    status: numberStatusOf(track.state, track.error_code),
    ...extra,
  };
}

/** Why the engine must stop sending, from a refused send. */
export interface EngineHalt {
  state: 'paused' | 'stopped';
  code: number;
}

/**
 * Records what the sends came to, blast by blast (each locked first, then its numbers), and
 * settles each blast. Answers the halt a refusal asks for (a restricted sender, a bad token).
 */
export async function recordResults(
  database: DbHandle,
  results: readonly SendResult[],
  retrying: Retrying,
): Promise<EngineHalt | null> {
  if (results.length === 0) return null;
  return transact(database, async (tx) => {
    let halt: EngineHalt | null = null;
    const templateRefusals = new Map<string, { templateId: string; code: number; at: string }>();
    const byBlast = groupBy(results, (r) => r.blastId);
    for (const blastId of [...byBlast.keys()].sort()) {
      if (!(await lockIfPresent(tx, blastId))) continue;
      const mine = byBlast.get(blastId)!;
      const rows = await numberRows(
        tx,
        blastId,
        mine.map((r) => r.idx),
      );
      const changed = new Map<number, NumberRow>();
      for (const result of mine) {
        const row = rows.get(result.idx);
        if (!row) continue;
        const { change, halts } = resultChange(row, result, retrying);
        if (halts && (!halt || halts.state === 'stopped')) halt = halts;
        if (change) {
          rows.set(row.idx, { ...row, ...change });
          changed.set(row.idx, rows.get(row.idx)!);
        }
      }
      await writeDeliveries(tx, [...changed.values()]);
      const refused = await refusedTemplate(tx, blastId, mine);
      if (refused) templateRefusals.set(refused.templateId, refused);
      await settleDelivery(tx, blastId);
    }
    // After the blasts, as the webhooks' applier does: the two never wait on each other's locks.
    for (const templateId of [...templateRefusals.keys()].sort()) {
      const { code, at } = templateRefusals.get(templateId)!;
      await applyTemplateRefusal(tx, templateId, code, at);
    }
    if (halt) await haltEngine(tx, halt, retrying);
    return halt;
  });
}

/** A refusal among the blast's results that names its template paused or disabled, if any. */
async function refusedTemplate(tx: Tx, blastId: string, results: readonly SendResult[]) {
  const refusal = results.find(
    (r) => r.outcome.kind === 'refused' && refusalNamesTemplate(r.outcome.code),
  );
  if (refusal?.outcome.kind !== 'refused' || refusal.outcome.code === null) return null;
  const { template } = await tx.db
    .selectFrom('blasts')
    .select('template')
    .where('id', '=', blastId)
    .executeTakeFirstOrThrow();
  if (template === null) return null;
  const { id } = JSON.parse(template) as BlastTemplate;
  return { templateId: id, code: refusal.outcome.code, at: refusal.at };
}

/** Locks the blast; false when it is gone (its client deleted meanwhile): nothing to record. */
async function lockIfPresent(tx: Tx, blastId: string): Promise<boolean> {
  const exists = await tx.db
    .selectFrom('blasts')
    .select('id')
    .where('id', '=', blastId)
    .executeTakeFirst();
  if (exists) await lockBlast(tx, blastId);
  return exists !== undefined;
}

async function numberRows(tx: Tx, blastId: string, indexes: number[]) {
  const rows = await tx.db
    .selectFrom('blast_numbers')
    .selectAll()
    .where('blast_id', '=', blastId)
    .where('idx', 'in', indexes)
    .execute();
  return new Map(rows.map((row) => [row.idx, row]));
}

/** The change one send's result makes to its number (none when a webhook got there first). */
function resultChange(
  row: NumberRow,
  { outcome, at }: SendResult,
  retrying: Retrying,
): { change: Partial<NumberRow> | null; halts?: EngineHalt } {
  if (row.state !== 'sending') {
    // A webhook already told what became of it; an accepted answer still names its message.
    return {
      change:
        outcome.kind === 'accepted' && row.provider_message_id === null
          ? { provider_message_id: outcome.wamid }
          : null,
    };
  }
  const again = (when: number, extra: Partial<NumberRow> = {}) => ({
    change: { state: 'queued' as const, next_attempt_at: isoAt(when), ...extra },
  });
  const atMs = Date.parse(at);
  switch (outcome.kind) {
    case 'accepted':
      return {
        change: changeOf(applyStatus(trackOf(row), 'sent', at), {
          provider_message_id: row.provider_message_id ?? outcome.wamid,
          error_code: null,
          error_title: null,
        }),
      };
    case 'unknown':
      return { change: null };
    case 'not_on_whatsapp':
      return {
        change: {
          ...trackOf(row),
          state: 'failed',
          failed_at: at,
          status: 'no_wa',
          error_code: null,
          error_title: NOT_ON_WHATSAPP,
        },
      };
    case 'held':
      // Not the number's fault: its attempt is not counted.
      return again(atMs, {
        attempts: row.attempts - 1,
        error_code: outcome.code,
        error_title: outcome.title,
      });
    case 'unreachable':
    case 'refused': {
      const error =
        outcome.kind === 'refused'
          ? { error_code: outcome.code, error_title: outcome.title }
          : { error_code: null, error_title: 'WhatsApp Cloud API tidak dapat dihubungi' };
      const meaning = errorMeaning(error.error_code);
      if (meaning.handling === 'pause' || meaning.handling === 'stop') {
        // Not the number's fault: it waits for the engine, its attempt not counted.
        return {
          ...again(atMs, { ...error, attempts: row.attempts - 1 }),
          halts: {
            state: meaning.handling === 'stop' ? 'stopped' : 'paused',
            code: error.error_code!,
          },
        };
      }
      if (meaning.handling === 'hold') {
        // Its template is paused: it waits for Meta's approval (decision 222), its attempt not
        // counted; the refusal pauses the template, which holds its other numbers too.
        return again(heldUntil(atMs), { ...error, attempts: row.attempts - 1 });
      }
      if (meaning.handling === 'retry' && row.attempts < retrying.maxAttempts)
        return again(atMs + backoff(row.attempts, retrying), error);
      const failed = { ...trackOf(row), state: 'failed' as const, failed_at: at, ...error };
      return { change: { ...failed, status: failedStatus(error.error_code) } };
    }
  }
}

/** Why a number the gateway checked was never sent (Indonesian, as the client reads it). */
export const NOT_ON_WHATSAPP = 'Nomor tidak terdaftar di WhatsApp';

/** The wait before attempt `attempts + 1`: doubling from the base, at most ten minutes. */
function backoff(attempts: number, { retryBaseMs }: Retrying): number {
  return Math.min(retryBaseMs * 2 ** Math.max(attempts - 1, 0), 10 * 60 * 1000);
}

async function haltEngine(tx: Tx, halt: EngineHalt, retrying: Retrying) {
  const at = now();
  await holdEngine(tx, at);
  await tx.db
    .updateTable('delivery_engine')
    .set({
      state: halt.state,
      reason: errorMeaning(halt.code).meaning,
      error_code: halt.code,
      since: at,
      resume_at: halt.state === 'paused' ? isoAt(Date.now() + retrying.pauseMs) : null,
    })
    .where('id', '=', 1)
    .where('state', '!=', 'stopped')
    .execute();
}

/** One status of a message, as Meta's webhook reports it. */
export interface ReportedMessageStatus {
  id: string;
  status: ReportedStatus;
  at: string;
  callback: { blastId: string; idx: number } | null;
  code: number | null;
  title: string | null;
}

/** Applies the statuses; answers the message ids of those that name no known number. */
export async function applyStatuses(
  tx: Tx,
  statuses: ReportedMessageStatus[],
): Promise<Set<string>> {
  if (statuses.length === 0) return new Set();
  // Each status finds its number by the message id, or by the key it was sent with.
  const byMessage = new Map(
    (
      await tx.db
        .selectFrom('blast_numbers')
        .select(['blast_id', 'idx', 'provider_message_id'])
        .where(
          'provider_message_id',
          'in',
          statuses.map((s) => s.id),
        )
        .execute()
    ).map((row) => [row.provider_message_id!, { blastId: row.blast_id, idx: row.idx }]),
  );
  const unknown = new Set<string>();
  const located = statuses.flatMap((status) => {
    const where = byMessage.get(status.id) ?? status.callback;
    if (!where) unknown.add(status.id);
    return where ? [{ ...status, ...where }] : [];
  });
  const byBlast = groupBy(located, (s) => s.blastId);
  for (const blastId of [...byBlast.keys()].sort()) {
    if (!(await lockIfPresent(tx, blastId))) continue;
    const mine = byBlast.get(blastId)!;
    const rows = await numberRows(tx, blastId, [...new Set(mine.map((s) => s.idx))]);
    const changed: NumberRow[] = [];
    for (const [idx, reported] of groupBy(mine, (s) => s.idx)) {
      const row = rows.get(idx);
      if (!row || row.state === null) continue;
      let track = trackOf(row);
      let messageId = row.provider_message_id;
      let title = row.error_title;
      for (const status of reported) {
        track = applyStatus(track, status.status, status.at, status.code);
        messageId ??= status.id;
        if (status.status === 'failed' && track.state === 'failed') title = status.title;
      }
      changed.push({
        ...row,
        ...changeOf(track, {
          provider_message_id: messageId,
          error_title: title,
          next_attempt_at: null,
        }),
      });
    }
    await writeDeliveries(tx, changed);
    await settleDelivery(tx, blastId);
  }
  return unknown;
}

/**
 * Numbers left sending longer than their channel's wait with no word (a worker died between its
 * claim and the answer, or the answer was lost and no webhook came): Meta and WAHA report every
 * message they accepted, so these were never accepted and go back to the queue. Not while the
 * workers are behind with the kept webhooks (one waiting longer than a few seconds): one of them
 * may say what became of such a number.
 */
export async function requeueUnanswered(
  { db }: DbHandle,
  waits: { cloudApiMs: number; gatewayMs: number },
  at = Date.now(),
): Promise<number> {
  const waiting = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('processed_at', 'is', null)
    .where('received_at', '<', isoAt(at - 5000))
    .limit(1)
    .executeTakeFirst();
  if (waiting) return 0;
  const unanswered = (eb: ExpressionBuilder<Database, 'blast_numbers'>) =>
    eb.and([
      eb('state', '=', 'sending'),
      eb('claimed_at', '<', isoAt(at - waits.cloudApiMs)),
      // A gateway number (it has its device) takes longer to send.
      eb.or([eb('device', 'is', null), eb('claimed_at', '<', isoAt(at - waits.gatewayMs))]),
    ]);
  // Looked for first, so an idle worker's sweep takes no write lock.
  const any = await db
    .selectFrom('blast_numbers')
    .select('idx')
    .where(unanswered)
    .limit(1)
    .executeTakeFirst();
  if (!any) return 0;
  const moved = await db
    .updateTable('blast_numbers')
    .set({ state: 'queued', next_attempt_at: isoAt(at) })
    .where(unanswered)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
}

/**
 * How long a blast's header image is sent by the id of its upload: Meta keeps an uploaded file 30
 * days, and a day is left to spare. After that the image is uploaded again.
 */
const MEDIA_REUSE_MS = 29 * DAY_MS;

/** The blast's kept header image id while Meta still holds the upload, else null. */
function freshMediaId(
  row: { media_id: string | null; media_uploaded_at: string | null },
  at: number,
): string | null {
  const uploaded = row.media_uploaded_at === null ? NaN : Date.parse(row.media_uploaded_at);
  return uploaded > at - MEDIA_REUSE_MS ? row.media_id : null;
}

/** The blast's uploaded header image id, if one was kept and Meta still holds it. */
export async function keptMediaId({ db }: DbHandle, blastId: string): Promise<string | null> {
  const row = await db
    .selectFrom('blasts')
    .select(['media_id', 'media_uploaded_at'])
    .where('id', '=', blastId)
    .executeTakeFirst();
  return row ? freshMediaId(row, Date.now()) : null;
}

/**
 * Keeps the blast's uploaded header image id, unless another upload's id still good was kept
 * first (two workers may upload at once): answers the id to send with.
 */
export async function keepMediaId(database: DbHandle, blastId: string, mediaId: string) {
  const at = Date.now();
  await database.db
    .updateTable('blasts')
    .set({ media_id: mediaId, media_uploaded_at: isoAt(at) })
    .where('id', '=', blastId)
    .where((eb) =>
      eb.or([
        eb('media_uploaded_at', 'is', null),
        eb('media_uploaded_at', '<=', isoAt(at - MEDIA_REUSE_MS)),
      ]),
    )
    .execute();
  return (await keptMediaId(database, blastId)) ?? mediaId;
}

/** The stored type of an uploaded file. */
export async function uploadMime({ db }: DbHandle, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('uploads')
    .select('mime')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.mime ?? null;
}
