// Balances and ledger amounts as 64-bit integers on PostgreSQL, so both engines hold every balance
// up to MAX_BALANCE (SQLite's integers are 64-bit already): `integer` stopped PostgreSQL's
// balances at 2,147,483,647. Top-up requests (at most 1,000,000 points) and tier bounds (at most
// 10^9) are capped well inside 32 bits by their schemas and stay as they are.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '#server/db/connection.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  if (engine !== 'postgres') return;
  await sql`alter table users alter column points type bigint`.execute(db);
  await sql`alter table point_transactions
    alter column delta type bigint, alter column balance_after type bigint`.execute(db);
}
