// The opt-out list for the admin: read it, add a number, take one off.
import {
  OPT_OUT_MESSAGES,
  OptOutInputSchema,
  OptOutPageSchema,
  OptOutParamsSchema,
  OptOutQuerySchema,
  OptOutSchema,
} from '#common/opt-outs.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { OkSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import { addOptOut, listOptOuts, removeOptOut } from './opt-outs.service.ts';

const tags = ['opt-outs'];
const admin = { access: 'admin' } as const;

export function optOutsRoutes(app: App, { database }: AppContext) {
  app.get(
    '/api/admin/opt-outs',
    {
      config: admin,
      schema: { tags, querystring: OptOutQuerySchema, response: { 200: OptOutPageSchema } },
    },
    (request) => listOptOuts(database.db, request.query),
  );
  app.post(
    '/api/admin/opt-outs',
    { config: admin, schema: { tags, body: OptOutInputSchema, response: { 201: OptOutSchema } } },
    async (request, reply) =>
      reply.status(201).send(await addOptOut(database, currentUser(request).id, request.body)),
  );
  app.delete(
    '/api/admin/opt-outs/:number',
    { config: admin, schema: { tags, params: OptOutParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await removeOptOut(database, currentUser(request).id, request.params.number);
      return { detail: OPT_OUT_MESSAGES.removed };
    },
  );
}
