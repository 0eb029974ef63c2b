// Admin contacts: managed by the admin, the active ones read by clients.
import crypto from 'node:crypto';
import { ContactInputSchema, ContactSchema, type Contact } from '../../../common/contacts.ts';
import { z } from '../../../common/zod.ts';
import type { App, AppContext } from '../../app-context.ts';
import { bool, now } from '../../db/connection.ts';
import type { ContactsTable } from '../../db/schema.ts';
import { IdParamsSchema, OkSchema } from '../../http.ts';
import { notFound } from '../../plugins/errors.ts';

const tags = ['contacts'];
const admin = { access: 'admin' } as const;
const toContact = (row: ContactsTable): Contact => ({ ...row, is_active: Boolean(row.is_active) });

export function contactsRoutes(app: App, { database: { db } }: AppContext) {
  const list = (activeOnly: boolean) => {
    let query = db.selectFrom('contacts').selectAll().orderBy('created_at', 'desc').orderBy('id');
    if (activeOnly) query = query.where('is_active', '=', 1);
    return query.execute().then((rows) => rows.map(toContact));
  };
  const ListSchema = z.array(ContactSchema);

  app.get(
    '/api/admin/contacts',
    { config: admin, schema: { tags, response: { 200: ListSchema } } },
    () => list(false),
  );
  app.get(
    '/api/client/contacts',
    { config: { access: 'client' }, schema: { tags, response: { 200: ListSchema } } },
    () => list(true),
  );
  app.post(
    '/api/admin/contacts',
    { config: admin, schema: { tags, body: ContactInputSchema, response: { 201: ContactSchema } } },
    async (request, reply) => {
      const row = {
        id: crypto.randomUUID(),
        ...request.body,
        is_active: bool(request.body.is_active),
        created_at: now(),
      };
      await db.insertInto('contacts').values(row).execute();
      return reply.status(201).send(toContact(row));
    },
  );
  app.put(
    '/api/admin/contacts/:id',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: ContactInputSchema,
        response: { 200: ContactSchema },
      },
    },
    async (request) => {
      const row = await db
        .updateTable('contacts')
        .set({ ...request.body, is_active: bool(request.body.is_active) })
        .where('id', '=', request.params.id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Kontak');
      return toContact(row);
    },
  );
  app.delete(
    '/api/admin/contacts/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const result = await db
        .deleteFrom('contacts')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!result.numDeletedRows) throw notFound('Kontak');
      return { detail: 'Kontak berhasil dihapus' };
    },
  );
}
