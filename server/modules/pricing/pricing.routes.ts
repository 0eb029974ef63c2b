// Price tiers: the admin's list, read by clients to price a top-up.
import { PricingTierInputSchema, PricingTierSchema } from '#common/pricing.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema, OkSchema } from '#server/http.ts';
import { createTier, deleteTier, listTiers, updateTier } from './pricing.service.ts';

const tags = ['pricing'];
const admin = { access: 'admin' } as const;

export function pricingRoutes(app: App, { database }: AppContext) {
  const { db } = database;
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
  app.post(
    '/api/admin/pricing',
    {
      config: admin,
      schema: { tags, body: PricingTierInputSchema, response: { 201: PricingTierSchema } },
    },
    async (request, reply) => reply.status(201).send(await createTier(database, request.body)),
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
    (request) => updateTier(database, request.params.id, request.body),
  );
  app.delete(
    '/api/admin/pricing/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await deleteTier(db, request.params.id);
      return { detail: 'Tier harga berhasil dihapus' };
    },
  );
}
