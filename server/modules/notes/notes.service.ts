// The administrator's notepad: the notes and their changes.
import crypto from 'node:crypto';
import type { Note, NoteInput } from '#common/notes.ts';
import { now, type Db } from '#server/db/connection.ts';
import { notFound } from '#server/plugins/errors.ts';

/** Last changed first. */
export const listNotes = (db: Db): Promise<Note[]> =>
  db.selectFrom('notes').selectAll().orderBy('updated_at', 'desc').orderBy('id').execute();

export async function createNote(db: Db, input: NoteInput): Promise<Note> {
  const timestamp = now();
  const row = { id: crypto.randomUUID(), ...input, created_at: timestamp, updated_at: timestamp };
  await db.insertInto('notes').values(row).execute();
  return row;
}

export async function updateNote(db: Db, id: string, input: NoteInput): Promise<Note> {
  const row = await db
    .updateTable('notes')
    .set({ ...input, updated_at: now() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Catatan');
  return row;
}

/** The deleted note's title. */
export async function deleteNote(db: Db, id: string): Promise<string> {
  const row = await db
    .deleteFrom('notes')
    .where('id', '=', id)
    .returning('title')
    .executeTakeFirst();
  if (!row) throw notFound('Catatan');
  return row.title;
}
