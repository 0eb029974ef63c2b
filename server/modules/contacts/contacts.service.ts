// Admin contacts: the list, and the admin's changes to it.
import crypto from 'node:crypto';
import type { Contact, ContactInput } from '#common/contacts.ts';
import { bool, now, type Db } from '#server/db/connection.ts';
import type { ContactsTable } from '#server/db/schema.ts';
import { notFound } from '#server/plugins/errors.ts';

const toContact = (row: ContactsTable): Contact => ({ ...row, is_active: Boolean(row.is_active) });

/** Newest first; `activeOnly` for the clients' list. */
export async function listContacts(db: Db, activeOnly: boolean): Promise<Contact[]> {
  let query = db.selectFrom('contacts').selectAll().orderBy('created_at', 'desc').orderBy('id');
  if (activeOnly) query = query.where('is_active', '=', 1);
  return (await query.execute()).map(toContact);
}

export async function createContact(db: Db, input: ContactInput): Promise<Contact> {
  const row = {
    id: crypto.randomUUID(),
    ...input,
    is_active: bool(input.is_active),
    created_at: now(),
  };
  await db.insertInto('contacts').values(row).execute();
  return toContact(row);
}

export async function updateContact(db: Db, id: string, input: ContactInput): Promise<Contact> {
  const row = await db
    .updateTable('contacts')
    .set({ ...input, is_active: bool(input.is_active) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Kontak');
  return toContact(row);
}

export async function deleteContact(db: Db, id: string): Promise<void> {
  const result = await db.deleteFrom('contacts').where('id', '=', id).executeTakeFirst();
  if (!result.numDeletedRows) throw notFound('Kontak');
}
