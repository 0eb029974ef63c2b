// Price tiers: the list, and changes that keep the tiers' point ranges apart.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { PricingTier, PricingTierInput } from '#common/pricing.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import { transact, type Tx } from '#server/db/transaction.ts';
import { conflict, notFound } from '#server/plugins/errors.ts';

export const listTiers = (db: Db) =>
  db.selectFrom('pricing_tiers').selectAll().orderBy('min_points').orderBy('id').execute();

/** Any number, distinct from the migrations' lock (7362001). */
const TIER_WRITE_LOCK = 7362002;

/**
 * Checks that `tier` overlaps no other. On PostgreSQL the check first takes a lock held until the
 * transaction ends: two writers could otherwise both read no overlap and both insert (SQLite's
 * writers already queue on the file lock).
 */
async function checkOverlap({ db: trx, engine }: Tx, tier: PricingTierInput, exceptId?: string) {
  if (engine === 'postgres')
    await sql`select pg_advisory_xact_lock(${TIER_WRITE_LOCK})`.execute(trx);
  let query = trx
    .selectFrom('pricing_tiers')
    .select('tier_name')
    .where('min_points', '<=', tier.max_points)
    .where('max_points', '>=', tier.min_points)
    // A range over several tiers names the lowest, the same one on both engines.
    .orderBy('min_points');
  if (exceptId) query = query.where('id', '!=', exceptId);
  const other = await query.executeTakeFirst();
  if (other) throw conflict(`Rentang poin bertabrakan dengan tier "${other.tier_name}"`);
}

// Writes are serialised in one transaction so two overlapping tiers cannot slip in together.
export async function createTier(
  database: DbHandle,
  input: PricingTierInput,
): Promise<PricingTier> {
  const row = { id: crypto.randomUUID(), ...input, created_at: now() };
  await transact(database, async (tx) => {
    await checkOverlap(tx, input);
    await tx.db.insertInto('pricing_tiers').values(row).execute();
  });
  return row;
}

export function updateTier(
  database: DbHandle,
  id: string,
  input: PricingTierInput,
): Promise<PricingTier> {
  return transact(database, async (tx) => {
    await checkOverlap(tx, input, id);
    const row = await tx.db
      .updateTable('pricing_tiers')
      .set(input)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Tier harga');
    return row;
  });
}

export async function deleteTier(db: Db, id: string): Promise<void> {
  const result = await db.deleteFrom('pricing_tiers').where('id', '=', id).executeTakeFirst();
  if (!result.numDeletedRows) throw notFound('Tier harga');
}
