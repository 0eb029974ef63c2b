// The message templates over HTTP: the admin syncs them from the Cloud API and switches each on or
// off; clients read the ones they may send with.
import { ErrorSchema } from '#common/auth.ts';
import {
  ClientTemplateListSchema,
  TemplateEnableInputSchema,
  TemplateListSchema,
  TemplateSchema,
} from '#common/templates.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import {
  clientTemplates,
  listTemplates,
  setTemplateEnabled,
  syncTemplates,
} from './templates.service.ts';

const tags = ['delivery'];
const admin = { access: 'admin' } as const;

export function templatesRoutes(app: App, { database, secrets }: AppContext) {
  const { db } = database;
  app.get(
    '/api/admin/delivery/templates',
    { config: admin, schema: { tags, response: { 200: TemplateListSchema } } },
    () => listTemplates(db),
  );
  // 502: the Cloud API could not be reached or refused the call; `detail` says why.
  app.post(
    '/api/admin/delivery/templates/sync',
    { config: admin, schema: { tags, response: { 200: TemplateListSchema, 502: ErrorSchema } } },
    (request) => syncTemplates(database, secrets, currentUser(request).id),
  );
  app.put(
    '/api/admin/delivery/templates/:id',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: TemplateEnableInputSchema,
        response: { 200: TemplateSchema },
      },
    },
    (request) =>
      setTemplateEnabled(
        database,
        request.params.id,
        request.body.enabled,
        currentUser(request).id,
      ),
  );
  app.get(
    '/api/client/templates',
    { config: { access: 'client' }, schema: { tags, response: { 200: ClientTemplateListSchema } } },
    () => clientTemplates(db),
  );
}
