// What happens to a blast after its creation: the admin's results and per-number statuses with
// refunds settled as differences, the admin's reject and the client's cancel, and the delivery
// engine's settlement of an engine-sent blast.
import {
  BLAST_MESSAGES,
  CHANNEL_NAMES,
  closedBeforeSending,
  OPTED_OUT_BEFORE_SENDING,
  channelName,
  resultStatuses,
  sentByEngine,
  resultSumMessage,
  type BlastResultInput,
  type NumberStatus,
} from '#common/blasts.ts';
import { groupBy } from '#common/collections.ts';
import { now, type DbHandle } from '#server/db/connection.ts';
import type { BlastsTable } from '#server/db/schema.ts';
import { countRow } from '#server/db/summary-counts.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
import { conflict, HttpError, notFound } from '#server/plugins/errors.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { applyPoints, holdClient } from '#server/modules/points/ledger.ts';
import { getBlast } from './blasts.service.ts';

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

/** A queued number failed unsent, with the reason. */
const failedUnsent = (reason: string) => ({
  state: 'failed' as const,
  status: 'failed' as const,
  failed_at: now(),
  error_code: null,
  error_title: reason,
  next_attempt_at: null,
});

/**
 * A recipient asked to receive no more blasts (an opt-out): the numbers still queued to them fail
 * unsent with the reason, and their blasts are settled (refunded). Each blast is locked before its
 * numbers, as every other change of them does. Numbers already on their way are left to their
 * fate.
 */
export async function withdrawQueuedTo(tx: Tx, numbers: readonly string[]): Promise<void> {
  if (numbers.length === 0) return;
  const blasts = await tx.db
    .selectFrom('blast_numbers')
    .select('blast_id')
    .distinct()
    .where('number', 'in', [...numbers])
    .where('state', '=', 'queued')
    .execute();
  for (const { blast_id } of blasts) {
    await lockBlast(tx, blast_id);
    await tx.db
      .updateTable('blast_numbers')
      .set(failedUnsent(OPTED_OUT_BEFORE_SENDING))
      .where('blast_id', '=', blast_id)
      .where('number', 'in', [...numbers])
      .where('state', '=', 'queued')
      .execute();
    await settleDelivery(tx, blast_id);
  }
}

/** Fails the numbers still waiting to be sent, with the reason; answers the blast's counts. */
async function stopSending(tx: Tx, id: string, outcome: 'rejected' | 'cancelled') {
  await tx.db
    .updateTable('blast_numbers')
    .set(failedUnsent(closedBeforeSending(outcome)!))
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
