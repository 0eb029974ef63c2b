// Keys the server makes once and keeps in the database when none is configured, so a restart (or
// another instance on the same database) keeps using them.
import crypto from 'node:crypto';
import type { Db } from './connection.ts';

/** The kept random 32-byte key called `name`, made on first use. */
export async function keptKey(db: Db, name: string): Promise<Buffer> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: crypto.randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}
