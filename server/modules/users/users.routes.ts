// The admin's client accounts.
import { UserSchema } from '../../../common/auth.ts';
import { PageQuerySchema } from '../../../common/pagination.ts';
import {
  ChangePasswordSchema,
  CreateUserSchema,
  UpdateUserSchema,
  UserPageSchema,
} from '../../../common/users.ts';
import type { App, AppContext } from '../../app-context.ts';
import { IdParamsSchema, OkSchema } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import {
  changeClientPassword,
  createClient,
  deleteClient,
  listClients,
  updateClient,
} from './users.service.ts';

const admin = { access: 'admin' } as const;
const tags = ['users'];

export function usersRoutes(app: App, { database, files }: AppContext) {
  app.get(
    '/api/admin/users',
    {
      config: admin,
      schema: { tags, querystring: PageQuerySchema, response: { 200: UserPageSchema } },
    },
    (request) => listClients(database, request.query),
  );
  app.post(
    '/api/admin/users',
    { config: admin, schema: { tags, body: CreateUserSchema, response: { 201: UserSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createClient(database, currentUser(request).id, request.body)),
  );
  app.put(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: UpdateUserSchema,
        response: { 200: UserSchema },
      },
    },
    (request) => updateClient(database, currentUser(request).id, request.params.id, request.body),
  );
  app.put(
    '/api/admin/users/:id/password',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: ChangePasswordSchema,
        response: { 200: OkSchema },
      },
    },
    async (request) => {
      await changeClientPassword(
        database,
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      return { detail: 'Password klien berhasil diperbarui' };
    },
  );
  app.delete(
    '/api/admin/users/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const user = await deleteClient(database, files, currentUser(request).id, request.params.id);
      return { detail: `Klien ${user.username} berhasil dihapus` };
    },
  );
}
