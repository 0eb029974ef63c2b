// The one way a points balance changes: the balance and its ledger entry move together, inside
// the caller's transaction, and the balance never goes below zero nor above MAX_BALANCE. Every blast, approval and
// refund runs these statements, so they are written as SQL: Kysely's builder cost more than
// PostgreSQL's own work on them (see addCounts in counters.ts).
import crypto from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { MAX_BALANCE, MAX_BALANCE_MESSAGE } from '../../../common/points.ts';
import { type Engine, insertRows, type Write, writeAll } from '../../db/connection.ts';
import { countLedgerEntry } from '../../db/counters.ts';
import type { Database, PointTransactionsTable, UsersTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../plugins/errors.ts';

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

const FOR_KEY_SHARE = sql` for key share`;
// The lock an update of the balance takes: it waits for no holder of FOR_KEY_SHARE.
const FOR_NO_KEY_UPDATE = sql` for no key update`;
const NOTHING = sql``;

/**
 * The client's row, kept from deletion until the transaction ends: an admin may delete the
 * client after its request passed the token check. On PostgreSQL `for key share` blocks only the
 * delete (which locks `for update`), never a balance change.
 */
export async function holdClient(
  engine: Engine,
  trx: Transaction<Database>,
  userId: string,
  missing = 'Klien',
) {
  const [row] = (
    await sql<Pick<UsersTable, 'points' | 'username'>>`select points, username from users
      where id = ${userId}${engine === 'postgres' ? FOR_KEY_SHARE : NOTHING}`.execute(trx)
  ).rows;
  if (!row) throw notFound(missing);
  return row;
}

/** Applies one entry and answers the new balance. A zero delta writes nothing. */
export async function applyPoints(
  engine: Engine,
  trx: Transaction<Database>,
  entry: LedgerEntry,
  notEnoughMessage: NotEnoughMessage = NOT_ENOUGH_POINTS,
): Promise<number> {
  const { points, writes } = await movePoints(engine, trx, entry, notEnoughMessage);
  await writeAll(engine, trx, writes);
  return points;
}

/**
 * Moves the balance by the entry's delta, never below zero, and answers the new balance with the
 * writes that record the move (the ledger entry and its type's total). The caller runs them in
 * the same transaction, with its own writes (writeAll): the balance and its entry move together
 * only once they have run. A zero delta records nothing.
 */
export async function movePoints(
  engine: Engine,
  trx: Transaction<Database>,
  entry: LedgerEntry,
  notEnoughMessage: NotEnoughMessage = NOT_ENOUGH_POINTS,
): Promise<{ points: number; writes: Write[] }> {
  if (!Number.isSafeInteger(entry.delta)) throw new Error('ledger delta must be an integer');
  const createdAt = new Date().toISOString();
  // Only a credit is held to the maximum: a debit may always bring a balance down.
  const cap = entry.delta > 0 ? sql` and points + ${entry.delta} <= ${MAX_BALANCE}` : NOTHING;
  const [updated] = (
    await sql<Pick<UsersTable, 'points' | 'ledger_seq'>>`update users
      set points = points + ${entry.delta}, ledger_seq = ledger_seq + ${entry.delta === 0 ? 0 : 1},
        updated_at = ${createdAt}
      where id = ${entry.userId} and points + ${entry.delta} >= 0${cap}
      returning points, ledger_seq`.execute(trx)
  ).rows;
  if (!updated) {
    // The balance as it is now, held as the update would hold it: on PostgreSQL another writer may
    // have moved it since the caller read it, before or after this update ran. Held, it cannot
    // move again: enough now (a credit came in between), the move is made; else it is the balance
    // that was short, the one the refusal names.
    const lock = engine === 'postgres' ? FOR_NO_KEY_UPDATE : NOTHING;
    const [now] = (
      await sql<Pick<UsersTable, 'points'>>`select points from users
        where id = ${entry.userId}${lock}`.execute(trx)
    ).rows;
    if (!now) throw notFound('Klien');
    const after = now.points + entry.delta;
    if (entry.delta > 0 && after > MAX_BALANCE) throw conflict(MAX_BALANCE_MESSAGE);
    if (after >= 0) return movePoints(engine, trx, entry, notEnoughMessage);
    throw conflict(
      typeof notEnoughMessage === 'string' ? notEnoughMessage : notEnoughMessage(now.points),
    );
  }
  if (entry.delta === 0) return { points: updated.points, writes: [] };
  const row = insertRows('point_transactions', [
    {
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
    },
  ]);
  return {
    points: updated.points,
    writes: [row, ...countLedgerEntry(entry.userId, entry.type, entry.delta)],
  };
}
