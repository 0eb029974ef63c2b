// Blast requests: the client creates, follows and cancels; the admin enters results.
import {
  BlastPageSchema,
  BlastQuerySchema,
  BlastResultSchema,
  BlastDetailSchema,
  CreateBlastSchema,
  NumberStatusesSchema,
} from '#common/blasts.ts';
import { PageQuerySchema } from '#common/pagination.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import { createBlast } from './blast-creation.service.ts';
import { closeBlast, saveNumberStatuses, submitResult } from './blast-settlement.service.ts';
import { getBlast, listBlasts } from './blasts.service.ts';

const tags = ['blasts'];
const admin = { access: 'admin' } as const;
const client = { access: 'client' } as const;
const ListQuerySchema = PageQuerySchema.extend(BlastQuerySchema.shape);
const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'Idempotency-Key tidak valid')
    .optional(),
});

export function blastsRoutes(app: App, context: AppContext) {
  clientRoutes(app, context);
  adminRoutes(app, context);
}

/** The client's own blasts: create (idempotent with a key), list, read, cancel. */
function clientRoutes(app: App, { database }: AppContext) {
  app.post(
    '/api/client/blast-requests',
    {
      config: { ...client, expensive: true },
      schema: {
        tags,
        headers: IdempotencyHeadersSchema,
        body: CreateBlastSchema,
        response: { 201: BlastDetailSchema },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'] ?? null;
      return reply
        .status(201)
        .send(await createBlast(database, currentUser(request).id, request.body, key));
    },
  );
  app.get(
    '/api/client/blast-requests',
    {
      config: client,
      schema: { tags, querystring: ListQuerySchema, response: { 200: BlastPageSchema } },
    },
    (request) =>
      listBlasts(database, request.query, {
        userId: currentUser(request).id,
        status: request.query.status,
      }),
  );
  app.get(
    '/api/client/blast-requests/:id',
    {
      config: client,
      schema: { tags, params: IdParamsSchema, response: { 200: BlastDetailSchema } },
    },
    (request) => getBlast(database, request.params.id, currentUser(request).id),
  );
  app.post(
    '/api/client/blast-requests/:id/cancel',
    {
      config: client,
      schema: { tags, params: IdParamsSchema, response: { 200: BlastDetailSchema } },
    },
    (request) => {
      const user = currentUser(request);
      return closeBlast(database, user.id, request.params.id, 'cancelled', user.id);
    },
  );
}

/** Every client's blasts for the admin: list, read, enter results, reject. */
function adminRoutes(app: App, { database }: AppContext) {
  app.get(
    '/api/admin/blast-requests',
    {
      config: admin,
      schema: { tags, querystring: ListQuerySchema, response: { 200: BlastPageSchema } },
    },
    (request) => listBlasts(database, request.query, { status: request.query.status }),
  );
  app.get(
    '/api/admin/blast-requests/:id',
    {
      config: admin,
      schema: { tags, params: IdParamsSchema, response: { 200: BlastDetailSchema } },
    },
    (request) => getBlast(database, request.params.id),
  );
  app.post(
    '/api/admin/blast-requests/:id/result',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: BlastResultSchema,
        response: { 200: BlastDetailSchema },
      },
    },
    (request) => submitResult(database, currentUser(request).id, request.params.id, request.body),
  );
  app.post(
    '/api/admin/blast-requests/:id/number-statuses',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: NumberStatusesSchema,
        response: { 200: BlastDetailSchema },
      },
    },
    (request) =>
      saveNumberStatuses(
        database,
        currentUser(request).id,
        request.params.id,
        request.body.number_statuses,
      ),
  );
  app.post(
    '/api/admin/blast-requests/:id/reject',
    {
      config: admin,
      schema: { tags, params: IdParamsSchema, response: { 200: BlastDetailSchema } },
    },
    (request) => closeBlast(database, currentUser(request).id, request.params.id, 'rejected'),
  );
}
