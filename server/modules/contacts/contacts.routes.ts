// Admin contacts: managed by the admin, the active ones read by clients.
import { ContactInputSchema, ContactSchema } from '#common/contacts.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema, OkSchema } from '#server/http.ts';
import { createContact, deleteContact, listContacts, updateContact } from './contacts.service.ts';

const tags = ['contacts'];
const admin = { access: 'admin' } as const;

export function contactsRoutes(app: App, { database: { db } }: AppContext) {
  const ListSchema = z.array(ContactSchema);

  app.get(
    '/api/admin/contacts',
    { config: admin, schema: { tags, response: { 200: ListSchema } } },
    () => listContacts(db, false),
  );
  app.get(
    '/api/client/contacts',
    { config: { access: 'client' }, schema: { tags, response: { 200: ListSchema } } },
    () => listContacts(db, true),
  );
  app.post(
    '/api/admin/contacts',
    { config: admin, schema: { tags, body: ContactInputSchema, response: { 201: ContactSchema } } },
    async (request, reply) => reply.status(201).send(await createContact(db, request.body)),
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
    (request) => updateContact(db, request.params.id, request.body),
  );
  app.delete(
    '/api/admin/contacts/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await deleteContact(db, request.params.id);
      return { detail: 'Kontak berhasil dihapus' };
    },
  );
}
