// Top-up requests and the client's point history.
import { PageQuerySchema } from '#common/pagination.ts';
import {
  CreatePointRequestSchema,
  PointRequestPageSchema,
  PointRequestQuerySchema,
  PointRequestSchema,
  TransactionPageSchema,
} from '#common/points.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import {
  createPointRequest,
  decidePointRequest,
  listPointRequests,
  listTransactions,
} from './points.service.ts';

const tags = ['points'];
const admin = { access: 'admin' } as const;
const client = { access: 'client' } as const;
const ListQuerySchema = PageQuerySchema.extend(PointRequestQuerySchema.shape);

export function pointsRoutes(app: App, { database }: AppContext) {
  app.post(
    '/api/client/point-requests',
    {
      config: client,
      schema: { tags, body: CreatePointRequestSchema, response: { 201: PointRequestSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createPointRequest(database, currentUser(request).id, request.body)),
  );
  app.get(
    '/api/client/point-requests',
    {
      config: client,
      schema: { tags, querystring: ListQuerySchema, response: { 200: PointRequestPageSchema } },
    },
    (request) =>
      listPointRequests(database, request.query, {
        userId: currentUser(request).id,
        status: request.query.status,
      }),
  );
  app.get(
    '/api/admin/point-requests',
    {
      config: admin,
      schema: { tags, querystring: ListQuerySchema, response: { 200: PointRequestPageSchema } },
    },
    (request) => listPointRequests(database, request.query, { status: request.query.status }),
  );
  for (const [action, decision] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.post(
      `/api/admin/point-requests/:id/${action}`,
      {
        config: admin,
        schema: { tags, params: IdParamsSchema, response: { 200: PointRequestSchema } },
      },
      (request) =>
        decidePointRequest(database, currentUser(request).id, request.params.id, decision),
    );
  }
  app.get(
    '/api/client/transactions',
    {
      config: client,
      schema: { tags, querystring: PageQuerySchema, response: { 200: TransactionPageSchema } },
    },
    (request) => listTransactions(database, currentUser(request).id, request.query),
  );
}
