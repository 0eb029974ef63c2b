// The admin's client accounts.
import { UserSchema } from '#common/auth.ts';
import { PageQuerySchema } from '#common/pagination.ts';
import {
  ChangePasswordSchema,
  CreateUserSchema,
  UpdateUserSchema,
  UserPageSchema,
} from '#common/users.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema, OkSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import {
  accountOf,
  changeClientPassword,
  createUser,
  deleteClient,
  listClients,
  updateClient,
} from './users.service.ts';

const admin = { access: 'admin' } as const;
const tags = ['users'];

export function usersRoutes(app: App, { database, files, loginLimiter }: AppContext) {
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
      reply.status(201).send(await createUser(database, currentUser(request).id, request.body)),
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
      const email = await changeClientPassword(
        database,
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      // A new password ends the waits that guesses of the old one earned.
      loginLimiter.lift(email);
      return { detail: 'Password klien berhasil diperbarui' };
    },
  );
  // Ends the sign-in waits of an account (a client, or another administrator) from every address.
  app.delete(
    '/api/admin/users/:id/sign-in-block',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const account = await accountOf(database, request.params.id);
      loginLimiter.lift(account.email);
      return { detail: `Blokir masuk ${account.username} telah dibuka` };
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
