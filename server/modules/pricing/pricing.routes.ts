// Price tiers: the admin's list, read by clients to price a top-up.
import crypto from 'node:crypto';
import {
  PricingTierInputSchema,
  PricingTierSchema,
  type PricingTierInput,
} from '../../../common/pricing.ts';
import { z } from '../../../common/zod.ts';
import type { App, AppContext } from '../../app-context.ts';
import { sql, type Transaction } from 'kysely';
import { now, type Db, type Engine } from '../../db/connection.ts';
import type { Database } from '../../db/schema.ts';
import { IdParamsSchema, OkSchema } from '../../http.ts';
import { conflict, notFound } from '../../plugins/errors.ts';

const tags = ['pricing'];
const admin = { access: 'admin' } as const;

export const listTiers = (db: Db) =>
  db.selectFrom('pricing_tiers').selectAll().orderBy('min_points').orderBy('id').execute();

/** Any number, distinct from the migrations' lock (7362001). */
const TIER_WRITE_LOCK = 7362002;

/**
 * Checks that `tier` overlaps no other. On PostgreSQL the check first takes a lock held until the
 * transaction ends: two writers could otherwise both read no overlap and both insert (SQLite's
 * writers already queue on the file lock).
 */
async function checkOverlap(
  engine: Engine,
  trx: Transaction<Database>,
  tier: PricingTierInput,
  exceptId?: string,
) {
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

export function pricingRoutes(app: App, { database: { db, engine } }: AppContext) {
  const ListSchema = z.array(PricingTierSchema);
  app.get(
    '/api/admin/pricing',
    { config: admin, schema: { tags, response: { 200: ListSchema } } },
    () => listTiers(db),
  );
  app.get(
    '/api/pricing',
    { config: { access: 'user' }, schema: { tags, response: { 200: ListSchema } } },
    () => listTiers(db),
  );
  // Writes are serialised in one transaction so two overlapping tiers cannot slip in together.
  app.post(
    '/api/admin/pricing',
    {
      config: admin,
      schema: { tags, body: PricingTierInputSchema, response: { 201: PricingTierSchema } },
    },
    async (request, reply) => {
      const row = { id: crypto.randomUUID(), ...request.body, created_at: now() };
      await db.transaction().execute(async (trx) => {
        await checkOverlap(engine, trx, request.body);
        await trx.insertInto('pricing_tiers').values(row).execute();
      });
      return reply.status(201).send(row);
    },
  );
  app.put(
    '/api/admin/pricing/:id',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: PricingTierInputSchema,
        response: { 200: PricingTierSchema },
      },
    },
    (request) =>
      db.transaction().execute(async (trx) => {
        await checkOverlap(engine, trx, request.body, request.params.id);
        const row = await trx
          .updateTable('pricing_tiers')
          .set(request.body)
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw notFound('Tier harga');
        return row;
      }),
  );
  app.delete(
    '/api/admin/pricing/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const result = await db
        .deleteFrom('pricing_tiers')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!result.numDeletedRows) throw notFound('Tier harga');
      return { detail: 'Tier harga berhasil dihapus' };
    },
  );
}
