// The administrator's notepad.
import { NoteInputSchema, NoteSchema } from '#common/notes.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { IdParamsSchema, OkSchema } from '#server/http.ts';
import { createNote, deleteNote, listNotes, updateNote } from './notes.service.ts';

const tags = ['notes'];
const admin = { access: 'admin' } as const;

export function notesRoutes(app: App, { database: { db } }: AppContext) {
  app.get(
    '/api/admin/notes',
    { config: admin, schema: { tags, response: { 200: z.array(NoteSchema) } } },
    () => listNotes(db),
  );
  app.post(
    '/api/admin/notes',
    { config: admin, schema: { tags, body: NoteInputSchema, response: { 201: NoteSchema } } },
    async (request, reply) => reply.status(201).send(await createNote(db, request.body)),
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
    (request) => updateNote(db, request.params.id, request.body),
  );
  app.delete(
    '/api/admin/notes/:id',
    { config: admin, schema: { tags, params: IdParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      const title = await deleteNote(db, request.params.id);
      return { detail: `Catatan "${title}" berhasil dihapus` };
    },
  );
}
