// The one transaction helper: runs work in a transaction that knows its engine, and retries the
// whole of it when the engine asks (a deadlock, a serialization failure, a busy SQLite file).
import type { Insertable, SelectQueryBuilder, Transaction } from 'kysely';
import type { DbHandle, Engine } from './connection.ts';
import type { Database } from './schema.ts';

/** A transaction in progress, with the engine it runs on for the few differences. */
export interface Tx {
  db: Transaction<Database>;
  engine: Engine;
}

const RETRYABLE = new Set(['40P01', '40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);
const MAX_TRIES = 5;

/** Runs `work` in one transaction, all or nothing, retrying it when the engine asks. */
export async function transact<T>(
  { db, engine }: DbHandle,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await db.transaction().execute((trx) => work({ db: trx, engine }));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (tries >= MAX_TRIES || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * tries));
    }
  }
}

/** Row lock for read-then-write on PostgreSQL; SQLite writers already hold the file lock. */
export function forUpdate<DB, TB extends keyof DB, O>(
  { engine }: { engine: Engine },
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return engine === 'postgres' ? query.forUpdate() : query;
}

/** The single-row records (id 1), which saves replace whole. */
type SingleRowTable = 'settings' | 'delivery_settings';

/**
 * Locks a single-row record for a save, making it from `empty` first when it does not exist yet:
 * saves then queue on the row, and even the first two each see what the other left.
 */
export async function holdSingleRow<T extends SingleRowTable>(
  tx: Tx,
  table: T,
  empty: Insertable<Database[T]>,
): Promise<void> {
  // The same two statements on either table; `empty` is typed by the signature.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = tx.db as unknown as Transaction<any>;
  const name: string = table;
  await db
    .insertInto(name)
    .values(empty)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await forUpdate(tx, db.selectFrom(name).select('id').where('id', '=', 1)).execute();
}
