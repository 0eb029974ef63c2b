// The delivery engine's claims (decision 204): Cloud API numbers are the outbox. Workers claim
// due numbers at the pace of all workers together, within the gap to each recipient and the daily
// limit, and put back those nobody has word of; what the sends come to is send-results.ts.
import type { BlastTemplate } from '#common/blasts.ts';
import { groupBy } from '#common/collections.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import { isoAt, type Db, type DbHandle } from '#server/db/connection.ts';
import type { BlastNumbersTable, Database, DeliveryEngineTable } from '#server/db/schema.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
import type { FileStore } from '#server/modules/uploads/file-store.ts';
import { storedFile, uploadName } from '#server/modules/uploads/uploads.service.ts';
import { closedBeforeSending } from '#common/blast-rules.ts';
import { lockBlast, settleDelivery } from '#server/modules/blasts/blast-settlement.service.ts';

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

/** A number taken to send now, with what its message needs. */
export interface Claimed {
  blastId: string;
  idx: number;
  /** Which attempt this send is (1 for the first): its message carries it. */
  attempt: number;
  number: string;
  template: BlastTemplate;
  imageUrl: string | null;
  mediaId: string | null;
  /** Its send slot (epoch ms): it is posted then, not before. */
  sendAt: number;
  /** When it was claimed (epoch ms): see mayStillPost. */
  claimedAt: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Notes that this server receives webhooks from now (its start): what Meta and WAHA could not
 * deliver while no server ran comes in their retries, so a send's silence counts from here too.
 * With no engine row yet nothing was ever sent, and there is nothing to note.
 */
export async function markWebhooksUp({ db }: DbHandle, at = Date.now()): Promise<void> {
  await db
    .updateTable('delivery_engine')
    .set({ webhooks_since: isoAt(at) })
    .where('id', '=', 1)
    .execute();
}

/** The engine's row, made running when it does not exist yet, and locked. */
export async function holdEngine(tx: Tx, at: string): Promise<DeliveryEngineTable> {
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
): Promise<{ claimed: Claimed[]; waitMs: number }> {
  return transact(database, async (tx) => {
    const engine = await holdEngine(tx, isoAt(Date.now()));
    // The time once the engine's row is held: a claim that waited for another worker's takes its
    // slots from now, not from before that wait (they would be past, and posted at once).
    const at = Date.now();
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
        'n.attempts',
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
        attempt: row.attempts + 1,
        number: row.number,
        template: JSON.parse(row.template ?? '{}') as BlastTemplate,
        imageUrl: row.image_url,
        mediaId: freshMediaId(row, at),
        sendAt: slots.start + i * slots.interval,
        claimedAt: at,
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
  answer_lost_at: null,
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
  const key = (row: { blast_id: string; idx: number }) => `${row.blast_id}/${row.idx}`;
  const sent = new Set(claimed.map(key));
  const out = taken.filter((row) => sent.has(key(row)));
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

/**
 * Whether the blast may still send its numbers: it was not closed (rejected, cancelled) or
 * deleted since they were claimed. Asked again before a send that waited (an upload, typing).
 */
export async function stillOpen({ db }: DbHandle, blastId: string): Promise<boolean> {
  const blast = await db
    .selectFrom('blasts')
    .select('status')
    .where('id', '=', blastId)
    .executeTakeFirst();
  return blast !== undefined && closedBeforeSending(blast.status) === null;
}

/** What a post is given beyond its own timeout before a sweep may take its number back. */
const POST_MARGIN_MS = 1000;

/**
 * Whether a number claimed at `claimedAt` may still be posted: the post, answered or timed out
 * (`requestMs`), must be over before another worker's sweep may take the number back (`waitMs` of
 * silence after the claim, see requeueUnanswered). A worker frozen after its claim (a suspended
 * machine, a stopped container) finds the time past when it wakes, and leaves the number to that
 * sweep instead of sending it a second time.
 */
export function mayStillPost(
  claimedAt: number,
  { waitMs, requestMs }: { waitMs: number; requestMs: number },
  now = Date.now(),
): boolean {
  return now < claimedAt + waitMs - requestMs - POST_MARGIN_MS;
}

/** A number's key in a worker's own bookkeeping: `{blastId}/{idx}`. */
export const numberKey = (blastId: string, idx: number) => `${blastId}/${idx}`;

/**
 * Whether kept webhook events due a while ago are not applied yet: the workers are behind, and one
 * may say what became of a silent number. (Events waiting on purpose, for a send's answer or set
 * aside after failing, are due later and do not count.)
 */
async function workersBehind(db: Db, at: number): Promise<boolean> {
  const due = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('processed_at', 'is', null)
    .where('due_at', '<', isoAt(at - 5000))
    .limit(1)
    .executeTakeFirst();
  return due !== undefined;
}

/** When a server last started receiving webhooks (decision 265); null: not since a send. */
async function webhooksSince(db: Db): Promise<string | null> {
  const engine = await db
    .selectFrom('delivery_engine')
    .select('webhooks_since')
    .where('id', '=', 1)
    .executeTakeFirst();
  return engine?.webhooks_since ?? null;
}

/**
 * Numbers left sending longer than their channel's wait with no word (a worker died between its
 * claim and the answer, or the answer was lost and no webhook came): Meta and WAHA report every
 * message they accepted, so these were never accepted and go back to the queue. One that has had
 * its `maxAttempts` fails instead, as does every one of a blast closed meanwhile (rejected,
 * cancelled), and its blast is settled. Not while the workers are behind with the kept webhooks
 * (workersBehind): one of them may say what became of such a number; nor before a wait has passed
 * since a server started receiving webhooks (decision 265).
 * Never the numbers this worker still has in hand (`inHand`: sent, their outcome not recorded
 * yet): after the process was frozen (a suspended machine, a long stall), its timers run before
 * the answers waiting on its sockets are read, and those numbers look silent.
 */
export async function requeueUnanswered(
  database: DbHandle,
  rules: { cloudApiMs: number; gatewayMs: number; maxAttempts: number },
  at = Date.now(),
  inHand: ReadonlySet<string> = new Set(),
): Promise<number> {
  const { db } = database;
  if (await workersBehind(db, at)) return 0;
  const since = await webhooksSince(db);
  // Silent for `ms`: since its claim, since its send ended with no answer if it did, and since
  // webhooks could reach Sebar (decision 265); none is silent yet while a server started less
  // than `ms` ago.
  const silentFor = (eb: ExpressionBuilder<Database, 'blast_numbers'>, ms: number) =>
    since !== null && since >= isoAt(at - ms)
      ? sql<boolean>`1 = 0`
      : eb.and([
          eb('claimed_at', '<', isoAt(at - ms)),
          eb.or([eb('answer_lost_at', 'is', null), eb('answer_lost_at', '<', isoAt(at - ms))]),
        ]);
  const unanswered = (eb: ExpressionBuilder<Database, 'blast_numbers'>) =>
    eb.and([
      eb('state', '=', 'sending'),
      silentFor(eb, rules.cloudApiMs),
      // A gateway number (it has its device) takes longer to send.
      eb.or([eb('device', 'is', null), silentFor(eb, rules.gatewayMs)]),
    ]);
  // Looked for first, so an idle worker's sweep is one cheap read and takes no write lock.
  const any = await db
    .selectFrom('blast_numbers')
    .select('idx')
    .where(unanswered)
    .limit(1)
    .executeTakeFirst();
  if (!any) return 0;
  const silent = (
    await db.selectFrom('blast_numbers').select(['blast_id', 'idx']).where(unanswered).execute()
  ).filter((row) => !inHand.has(numberKey(row.blast_id, row.idx)));
  let moved = 0;
  for (const [blast_id, rows] of groupBy(silent, (row) => row.blast_id)) {
    const idxs = rows.map((row) => row.idx);
    moved += await transact(database, async (tx) => {
      // Its status under the lock: a close in between is seen.
      const closed = closedBeforeSending((await lockBlast(tx, blast_id)).status);
      const fail = (reason: string) =>
        tx.db
          .updateTable('blast_numbers')
          .set({
            state: 'failed',
            status: 'failed',
            failed_at: isoAt(at),
            error_code: null,
            error_title: reason,
          })
          .where('blast_id', '=', blast_id)
          .where('idx', 'in', idxs)
          .where(unanswered);
      const failed = Number(
        (closed
          ? await fail(closed).executeTakeFirst()
          : await fail(noWordAfter(rules.maxAttempts))
              .where('attempts', '>=', rules.maxAttempts)
              .executeTakeFirst()
        ).numUpdatedRows,
      );
      const queued = await tx.db
        .updateTable('blast_numbers')
        .set({ state: 'queued', next_attempt_at: isoAt(at) })
        .where('blast_id', '=', blast_id)
        .where('idx', 'in', idxs)
        .where(unanswered)
        .executeTakeFirst();
      if (failed > 0) await settleDelivery(tx, blast_id);
      return failed + Number(queued.numUpdatedRows);
    });
  }
  return moved;
}

/** Why a number failed that was sent `attempts` times with never a word of any of them. */
const noWordAfter = (attempts: number) =>
  `Tidak ada kabar dari WhatsApp setelah ${attempts} kali dikirim`;

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

/** Why every number of a blast whose image is gone from Sebar's store fails unsent. */
export const IMAGE_MISSING = 'Gambar blast tidak ditemukan di server Sebar, pesan tidak dikirim';

/** A blast's image is gone from Sebar's store (its file or its record): it cannot be sent. */
export class MissingImage extends Error {
  constructor() {
    super(IMAGE_MISSING);
  }
}

/** A blast's stored image: its bytes, type and name; throws `MissingImage` when it is gone. */
export async function blastImage(
  { db }: DbHandle,
  files: FileStore,
  url: string,
): Promise<{ bytes: Buffer; mime: string; name: string }> {
  const name = uploadName(url) ?? '';
  const stored = await storedFile(db, files, name);
  if (!stored) throw new MissingImage();
  return { ...stored, name };
}
