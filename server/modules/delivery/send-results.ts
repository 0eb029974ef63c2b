// What the delivery engine's sends come to (decision 204): each number moves forward by its send's
// answer and by the statuses its webhooks report (cloud-api-events.ts and gateway-events.ts read
// those), is sent again or fails by what its error means (decision 227), and its blast is settled
// through the blast service; a restricted sender or a bad token halts the engine.
import type { BlastTemplate } from '#common/blasts.ts';
import { groupBy } from '#common/collections.ts';
import {
  applyStatus,
  numberStatusOf,
  type DeliveryTrack,
  type ReportedStatus,
} from '#common/delivery-states.ts';
import { errorMeaning, failedStatus, haltsEngine } from '#common/whatsapp-errors.ts';
import { sql } from 'kysely';
import { isoAt, now, type DbHandle } from '#server/db/connection.ts';
import type { BlastNumbersTable } from '#server/db/schema.ts';
import { transact, type Tx } from '#server/db/transaction.ts';
import { closedBeforeSending } from '#common/blast-rules.ts';
import { lockBlast, settleDelivery } from '#server/modules/blasts/blast-settlement.service.ts';
import { applyTemplateRefusal, heldUntil, refusalNamesTemplate } from './templates.service.ts';
import { holdEngine } from './outbox.ts';
import type { Retrying } from './engine-options.ts';

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
  | { kind: 'held'; code: number | null; title: string }
  /** Its blast was closed (rejected, cancelled) before the send: nothing was sent. */
  | { kind: 'closed' }
  /** Sebar cannot make the send at all (the blast's image is gone): it fails, unsent. */
  | { kind: 'unsendable'; title: string }
  /** Its claim grew too old to post (the worker was frozen): unsent, the sweep takes it back. */
  | { kind: 'late' };

export interface SendResult {
  blastId: string;
  idx: number;
  /** Which attempt the send was (a Cloud API send's; a gateway send names none). */
  attempt?: number;
  outcome: SendOutcome;
  at: string;
}

/** The key a message carries in `biz_opaque_callback_data`: its blast, index and attempt. */
export const callbackKey = (blastId: string, idx: number, attempt: number) =>
  `${blastId}/${idx}/${attempt}`;

/** Where a message's statuses belong: its number, and the attempt that sent it (if it says). */
export interface CallbackKey {
  blastId: string;
  idx: number;
  /** Null in a key without one (sent before keys carried the attempt). */
  attempt: number | null;
}

/** The number and attempt in a send's callback key, or null when it is not one of Sebar's. */
export function parseCallbackKey(key: unknown): CallbackKey | null {
  if (typeof key !== 'string') return null;
  const match = /^([0-9a-f-]{36})\/(\d{1,3})(?:\/(\d{1,6}))?$/.exec(key);
  if (!match) return null;
  const attempt = match[3] === undefined ? null : Number(match[3]);
  return { blastId: match[1]!, idx: Number(match[2]), attempt };
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
  'answer_lost_at',
  'failed_attempt',
] as const satisfies readonly (keyof BlastNumbersTable)[];
const INTEGER_COLUMNS = new Set(['idx', 'attempts', 'error_code', 'failed_attempt']);

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
    const haltCodes: number[] = [];
    const templateRefusals = new Map<string, { templateId: string; code: number; at: string }>();
    const byBlast = groupBy(results, (r) => r.blastId);
    for (const blastId of [...byBlast.keys()].sort()) {
      const blast = await lockIfPresent(tx, blastId);
      if (!blast) continue;
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
        const { change, haltCode } = resultChange(row, result, retrying, blast.status);
        if (haltCode !== undefined) haltCodes.push(haltCode);
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
    return haltFor(tx, haltCodes, retrying);
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

/** Locks the blast; null when it is gone (its client deleted meanwhile): nothing to record. */
async function lockIfPresent(tx: Tx, blastId: string) {
  const exists = await tx.db
    .selectFrom('blasts')
    .select('id')
    .where('id', '=', blastId)
    .executeTakeFirst();
  return exists ? lockBlast(tx, blastId) : null;
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

/** Why a number's send could not connect: to WAHA for a gateway number (it has its device). */
const unreachable = (row: NumberRow) =>
  row.device === null ? 'WhatsApp Cloud API tidak dapat dihubungi' : 'WAHA tidak dapat dihubungi';

/**
 * The change one send's result makes to its number (none when a webhook got there first). A
 * number of a blast closed meanwhile (rejected, cancelled) that would go again fails instead,
 * unsent, with the reason.
 */
function resultChange(
  row: NumberRow,
  { outcome, at, attempt }: SendResult,
  retrying: Retrying,
  blastStatus: string,
): { change: Partial<NumberRow> | null; haltCode?: number } {
  // A webhook said this message failed and the number went on to another attempt (decision 227):
  // the late answer is of a message that never arrived.
  if (attempt !== undefined && attempt !== row.attempts) return { change: null };
  if (row.state !== 'sending') {
    // A webhook already told what became of it; an accepted answer still names its message,
    // unless that message failed and the number waits to be sent again.
    return {
      change:
        outcome.kind === 'accepted' && row.provider_message_id === null && row.state !== 'queued'
          ? { provider_message_id: outcome.wamid }
          : null,
    };
  }
  const failed = (error: Pick<NumberRow, 'error_code' | 'error_title'>) => ({
    ...trackOf(row),
    state: 'failed' as const,
    failed_at: at,
    status: failedStatus(error.error_code),
    ...error,
  });
  const closed = closedBeforeSending(blastStatus);
  const again = (change: Partial<NumberRow>) =>
    closed === null ? change : failed({ error_code: null, error_title: closed });
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
      // The message may have gone: its webhook is waited for, the full wait from now.
      return { change: { answer_lost_at: at } };
    case 'not_on_whatsapp': {
      const notOnWhatsApp = failed({ error_code: null, error_title: NOT_ON_WHATSAPP });
      return { change: { ...notOnWhatsApp, status: 'no_wa' } };
    }
    case 'closed':
      return { change: again({}) };
    case 'late':
      // Another worker may already have it again: only the sweep moves it.
      return { change: null };
    case 'unsendable':
      return { change: failed({ error_code: null, error_title: outcome.title }) };
    case 'held':
      // Not the number's fault: its attempt is not counted.
      return {
        change: again({
          state: 'queued',
          next_attempt_at: isoAt(Date.parse(at)),
          attempts: row.attempts - 1,
          error_code: outcome.code,
          error_title: outcome.title,
        }),
      };
    case 'unreachable':
    case 'refused': {
      const error =
        outcome.kind === 'refused'
          ? { error_code: outcome.code, error_title: outcome.title }
          : { error_code: null, error_title: unreachable(row) };
      // Nothing was sent, so no status of this attempt will come: a wait for the engine or the
      // template does not count it (the next send may carry its number again).
      const retry = sendAgain(row, error, Date.parse(at), retrying, { sent: false });
      if (!retry) return { change: failed(error) };
      return { change: again(retry.change), haltCode: retry.haltCode };
    }
  }
}

/**
 * When a refused or failed message's number is sent again, by what its error means: a transient
 * error later (within the attempts), a restricted sender or a bad token when the engine goes on
 * (and the engine halts), a paused template once Meta approves it again (decision 222); null when
 * the failure is final. `sent`: a message went out (a webhook reports its failure), so the attempt
 * counts; a refused send that only waits for the engine or the template gives its attempt back.
 */
function sendAgain(
  row: NumberRow,
  error: Pick<NumberRow, 'error_code' | 'error_title'>,
  atMs: number,
  retrying: Retrying,
  { sent }: { sent: boolean },
): { change: Partial<NumberRow>; haltCode?: number } | null {
  const meaning = errorMeaning(error.error_code);
  const again = (when: number, { waiting = false } = {}) => ({
    change: {
      state: 'queued' as const,
      next_attempt_at: isoAt(when),
      ...error,
      ...(waiting && !sent ? { attempts: row.attempts - 1 } : {}),
    },
  });
  switch (meaning.handling) {
    case 'pause':
    case 'stop':
      return {
        ...again(atMs, { waiting: true }),
        haltCode: error.error_code!,
      };
    case 'hold':
      // The refusal pauses the template too, which holds its other numbers.
      return again(heldUntil(atMs), { waiting: true });
    case 'retry':
      return row.attempts < retrying.maxAttempts
        ? again(atMs + backoff(row.attempts, retrying))
        : null;
    default:
      return null;
  }
}

/** Why a number the gateway checked was never sent (Indonesian, as the client reads it). */
export const NOT_ON_WHATSAPP = 'Nomor tidak terdaftar di WhatsApp';

/** The wait before attempt `attempts + 1`: doubling from the base, at most ten minutes. */
function backoff(attempts: number, { retryBaseMs }: Retrying): number {
  return Math.min(retryBaseMs * 2 ** Math.max(attempts - 1, 0), 10 * 60 * 1000);
}

/**
 * Halts the engine as the worst of `codes` asks (a stop before a pause), when one of them does:
 * the errors met by sends, reported in failed statuses, or reported for the account. Answers the
 * halt, or null.
 */
export async function haltFor(
  tx: Tx,
  codes: readonly number[],
  retrying: Retrying,
): Promise<EngineHalt | null> {
  let halt: EngineHalt | null = null;
  for (const code of codes) {
    if (!haltsEngine(code)) continue;
    const { handling } = errorMeaning(code);
    if (!halt || handling === 'stop')
      halt = { state: handling === 'stop' ? 'stopped' : 'paused', code };
  }
  if (halt) await haltEngine(tx, halt, retrying);
  return halt;
}

/**
 * Keeps the last error Meta reported for the business phone number (`value.errors` of a webhook),
 * halting or not, so that 'Pengiriman' can show it.
 */
export async function noteAccountError(
  tx: Tx,
  error: { code: number; title: string | null } | undefined,
) {
  if (!error) return;
  const at = now();
  await holdEngine(tx, at);
  await tx.db
    .updateTable('delivery_engine')
    .set({ warning_code: error.code, warning_title: error.title, warning_at: at })
    .where('id', '=', 1)
    .execute();
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
  callback: CallbackKey | null;
  code: number | null;
  title: string | null;
}

/**
 * Applies the statuses. Answers the message ids of those that name no known number, and the codes
 * of their errors that halt the engine (a restricted sender, a bad token: the caller halts it, as
 * a refused send does). With `retrying` (Meta's statuses), a message that failed with an error
 * that is not final sends its number again; without it (WAHA's acks, which name no error), every
 * failure is final. A status of an earlier attempt than the number's last (a message that failed,
 * sent again since) changes nothing.
 */
export async function applyStatuses(
  tx: Tx,
  statuses: ReportedMessageStatus[],
  retrying: Retrying | null,
): Promise<{ unknown: Set<string>; haltCodes: number[] }> {
  const haltCodes: number[] = [];
  if (statuses.length === 0) return { unknown: new Set(), haltCodes };
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
    return where ? [{ ...status, blastId: where.blastId, idx: where.idx }] : [];
  });
  const byBlast = groupBy(located, (s) => s.blastId);
  for (const blastId of [...byBlast.keys()].sort()) {
    const blast = await lockIfPresent(tx, blastId);
    if (!blast) continue;
    const mine = byBlast.get(blastId)!;
    const rows = await numberRows(tx, blastId, [...new Set(mine.map((s) => s.idx))]);
    const changed: NumberRow[] = [];
    for (const [idx, reported] of groupBy(mine, (s) => s.idx)) {
      const row = rows.get(idx);
      if (!row || row.state === null) continue;
      const told = reported.filter((status) => ofNumber(row, status));
      if (told.length === 0) continue;
      const { change, haltCode } = statusesChange(
        row,
        told,
        retrying && { ...retrying, open: blast.status === 'pending' },
      );
      if (haltCode !== undefined) haltCodes.push(haltCode);
      changed.push({ ...row, ...change });
    }
    await writeDeliveries(tx, changed);
    await settleDelivery(tx, blastId);
  }
  return { unknown, haltCodes };
}

/**
 * Whether a status tells what became of the number: one of its last message (by its id, or by the
 * attempt it names), or word that an earlier message got through after all (a sweep took it back
 * for its silence, decision 265), unless that attempt's message was reported failed (failed is
 * final: a late sent does not undo it). An earlier message's failure is not the number's.
 */
const ofNumber = (row: NumberRow, status: ReportedMessageStatus) => {
  if (status.id === row.provider_message_id) return true;
  const attempt = status.callback?.attempt ?? row.attempts;
  if (attempt === row.failed_attempt) return false;
  return attempt === row.attempts || (attempt < row.attempts && status.status !== 'failed');
};

/**
 * The change the statuses reported of one number make (forward only), and a halt they ask for.
 * `retrying.open`: its blast is still being sent (one that has ended sends nothing more, so a
 * failure reported after its end is final).
 */
function statusesChange(
  row: NumberRow,
  reported: readonly ReportedMessageStatus[],
  retrying: (Retrying & { open: boolean }) | null,
): { change: Partial<NumberRow>; haltCode?: number } {
  let track = trackOf(row);
  let messageId = row.provider_message_id;
  let title = row.error_title;
  let failedAt = Date.now();
  for (const status of reported) {
    track = applyStatus(track, status.status, status.at, status.code);
    messageId ??= status.id;
    if (status.status === 'failed' && track.state === 'failed') {
      title = status.title;
      failedAt = Date.parse(status.at);
    }
  }
  // A failure that names its error may not be final (WAHA's acks name none); a restricted
  // sender or a bad token halts the engine whatever becomes of the number.
  let haltCode: number | undefined;
  if (retrying && track.state === 'failed' && row.state !== 'failed' && track.error_code !== null) {
    const error = { error_code: track.error_code, error_title: title };
    const retry = sendAgain(row, error, failedAt, retrying, { sent: true });
    haltCode = retry?.haltCode;
    // Its message never arrived: the number waits again, and its next attempt is a new message.
    const again = {
      status: 'pending' as const,
      provider_message_id: null,
      sent_at: null,
      failed_attempt: row.attempts,
    };
    if (retry && retrying.open)
      return { change: { ...retry.change, ...again, failed_at: null }, haltCode };
  }
  // A message that got through (its status may come before its send's answer is recorded)
  // leaves no error of an earlier attempt behind.
  const through = track.state === 'sent' || track.state === 'delivered' || track.state === 'read';
  return {
    change: changeOf(through ? { ...track, error_code: null } : track, {
      provider_message_id: messageId,
      error_title: through ? null : title,
      next_attempt_at: null,
    }),
    haltCode,
  };
}
