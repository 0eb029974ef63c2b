// The engine's row keeps the claims of the last second (decision 211): with them a claim that
// makes up send slots a late worker lost can never take more than `messages_per_second` in any
// second.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // JSON: [[epoch ms, numbers claimed], …], the claims of the last second, oldest first.
  await db.schema
    .alterTable('delivery_engine')
    .addColumn('recent_claims', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
