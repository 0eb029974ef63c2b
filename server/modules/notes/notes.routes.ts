// The administrator's notepad.
import crypto from 'node:crypto';
import { NoteInputSchema, NoteSchema } from '../../../common/notes.ts';
import { z } from '../../../common/zod.ts';
import type { App, AppContext } from '../../app-context.ts';
import { now } from '../../db/connection.ts';
import { IdParamsSchema, OkSchema } from '../../http.ts';
import { notFound } from '../../plugins/errors.ts';

const tags = ['notes'];
const admin = { access: 'admin' } as const;

export function notesRoutes(app: App, { database: { db } }: AppContext) {
  app.get(
    '/api/admin/notes',
    { config: admin, schema: { tags, response: { 200: z.array(NoteSchema) } } },
    () => db.selectFrom('notes').selectAll().orderBy('updated_at', 'desc').orderBy('id').execute(),
  );
  app.post(
    '/api/admin/notes',
    { config: admin, schema: { tags, body: NoteInputSchema, response: { 201: NoteSchema } } },
    async (request, reply) => {
      const timestamp = now();
      const row = {
        id: crypto.randomUUID(),
        ...request.body,
        created_at: timestamp,
        updated_at: timestamp,
      };
      await db.insertInto('notes').values(row).execute();
      return reply.status(201).send(row);
    },
  );
  app.put(
    '/api/admin/notes/:id',
    {
      config: admin,
      schema: {
        tags,
        params: IdParamsSchema,
        body: NoteInputSchema,
        response: { 200: NoteSchema },
      },
    },
    async (request) => {
      const row = await db
        .updateTable('notes')
        .set({ ...request.body, updated_at: now() })
        .where('id', '=', request.params.id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Catatan');
      return row;
    },
  );
  app.delete(
    '/api/admin/notes/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const row = await db
        .deleteFrom('notes')
        .where('id', '=', request.params.id)
        .returning('title')
        .executeTakeFirst();
      if (!row) throw notFound('Catatan');
      return { detail: `Catatan "${row.title}" berhasil dihapus` };
    },
  );
}
