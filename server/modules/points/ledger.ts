// The one way a points balance changes: applyPoints moves the balance and writes its ledger
// entry (and its count) together, inside the caller's transaction; the balance never goes below
// zero, and no top-up or adjustment takes it above MAX_BALANCE.
import crypto from 'node:crypto';
import { MAX_BALANCE, MAX_BALANCE_MESSAGE } from '#common/points.ts';
import { countRow } from '#server/db/summary-counts.ts';
import type { Tx } from '#server/db/transaction.ts';
import type { PointTransactionsTable } from '#server/db/schema.ts';
import { conflict, notFound } from '#server/plugins/errors.ts';

export interface LedgerEntry {
  userId: string;
  type: PointTransactionsTable['type'];
  delta: number;
  description: string;
  pointRequestId?: string | null;
  blastId?: string | null;
}

export const NOT_ENOUGH_POINTS = 'Poin tidak cukup';

/** The refusal's text, or a function of the balance that was short. */
export type NotEnoughMessage = string | ((points: number) => string);

/**
 * The client's row, kept from deletion until the transaction ends: an admin may delete the
 * client after its request passed the token check. On PostgreSQL `for key share` blocks only the
 * delete (which locks `for update`), never a balance change.
 */
export async function holdClient(tx: Tx, userId: string, missing = 'Klien') {
  let query = tx.db.selectFrom('users').select(['points', 'username']).where('id', '=', userId);
  if (tx.engine === 'postgres') query = query.forKeyShare();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(missing);
  return row;
}

/**
 * Whether the entry is held to MAX_BALANCE: a top-up or an adjustment that adds points. A debit
 * may always bring a balance down, and a refund gives back points its blast took, so it is never
 * refused: a delivery's refund has nobody to tell (decision 255).
 */
const capped = (entry: LedgerEntry) => entry.delta > 0 && entry.type !== 'refund';

/**
 * Moves the balance by the entry's delta and writes the entry, and answers the new balance. A
 * zero delta writes nothing.
 */
export async function applyPoints(
  tx: Tx,
  entry: LedgerEntry,
  notEnoughMessage: NotEnoughMessage = NOT_ENOUGH_POINTS,
): Promise<number> {
  if (!Number.isSafeInteger(entry.delta)) throw new Error('ledger delta must be an integer');
  if (entry.delta === 0) return (await holdClient(tx, entry.userId)).points;
  const createdAt = new Date().toISOString();
  let update = tx.db
    .updateTable('users')
    .set((eb) => ({
      points: eb('points', '+', entry.delta),
      ledger_seq: eb('ledger_seq', '+', 1),
      updated_at: createdAt,
    }))
    .where('id', '=', entry.userId)
    .where((eb) => eb(eb('points', '+', entry.delta), '>=', 0));
  if (capped(entry))
    update = update.where((eb) => eb(eb('points', '+', entry.delta), '<=', MAX_BALANCE));
  const updated = await update.returning(['points', 'ledger_seq']).executeTakeFirst();
  if (!updated) return refuseOrRetry(tx, entry, notEnoughMessage);
  await tx.db
    .insertInto('point_transactions')
    .values({
      id: crypto.randomUUID(),
      user_id: entry.userId,
      seq: updated.ledger_seq,
      type: entry.type,
      delta: entry.delta,
      balance_after: updated.points,
      description: entry.description,
      point_request_id: entry.pointRequestId ?? null,
      blast_id: entry.blastId ?? null,
      created_at: createdAt,
    })
    .execute();
  await countRow(tx, entry.userId, 'ledger', null, entry.type, entry.delta);
  return updated.points;
}

/**
 * The conditional update changed nothing: reads the balance as it is now, held as the update
 * would hold it (on PostgreSQL another writer may have moved it since). Enough now, the move is
 * made; else it is the balance that was short, the one the refusal names.
 */
async function refuseOrRetry(
  tx: Tx,
  entry: LedgerEntry,
  notEnoughMessage: NotEnoughMessage,
): Promise<number> {
  let query = tx.db.selectFrom('users').select('points').where('id', '=', entry.userId);
  if (tx.engine === 'postgres') query = query.forNoKeyUpdate();
  const current = await query.executeTakeFirst();
  if (!current) throw notFound('Klien');
  const after = current.points + entry.delta;
  if (capped(entry) && after > MAX_BALANCE) throw conflict(MAX_BALANCE_MESSAGE);
  if (after >= 0) return applyPoints(tx, entry, notEnoughMessage);
  throw conflict(
    typeof notEnoughMessage === 'string' ? notEnoughMessage : notEnoughMessage(current.points),
  );
}
