// Usernames are unique regardless of letter case: a unique index on lower(username), the same
// expression the service checks with, on both engines. A database that already holds names
// that differ only in case keeps its oldest account's name; each later one is renamed
// `name-2`, `name-3`, ... (an audit record keeps the old name). Accounts sign in by email, so a
// renamed client still signs in as before (docs/decisions/030-unique-usernames.md).
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** The longest username the schemas accept (common/users.ts). */
const MAX_USERNAME = 50;

/**
 * `name-N` with the smallest N from 2 whose lowered form no account has (cut to fit the length
 * limit); its lowered form is then taken. `key` is the name as the database lowered it: lowering
 * keeps the length of what lower() changes on SQLite (ASCII), and the suffix is ASCII.
 */
function freeName(name: string, key: string, taken: Set<string>): string {
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const keep = MAX_USERNAME - suffix.length;
    const lowered = `${key.slice(0, keep)}${suffix}`;
    if (!taken.has(lowered)) {
      taken.add(lowered);
      return `${name.slice(0, keep)}${suffix}`;
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Compared as the index compares (each engine's lower()), so what passes here passes there.
  const users: { id: string; username: string; key: string }[] = await db
    .selectFrom('users')
    .select(['id', 'username', sql<string>`lower(username)`.as('key')])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set(users.map((user) => user.key));
  const seen = new Set<string>();
  const timestamp = new Date().toISOString();
  for (const user of users) {
    if (!seen.has(user.key)) {
      seen.add(user.key);
      continue;
    }
    const renamed = freeName(user.username, user.key, taken);
    await db
      .updateTable('users')
      .set({ username: renamed, updated_at: timestamp })
      .where('id', '=', user.id)
      .execute();
    await db
      .insertInto('audit_log')
      .values({
        id: crypto.randomUUID(),
        actor_id: null,
        action: 'user.rename-duplicate',
        target_type: 'user',
        target_id: user.id,
        before_json: JSON.stringify({ username: user.username }),
        after_json: JSON.stringify({ username: renamed }),
        created_at: timestamp,
      })
      .execute();
  }
  await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
}
