// Liveness: a real round trip to the database.
import { sql } from 'kysely';
import type { DbHandle, Engine } from '#server/db/connection.ts';

/** Answers the engine once the database has answered a query. */
export async function checkDatabase(database: DbHandle): Promise<Engine> {
  await sql`select 1`.execute(database.db);
  return database.engine;
}
