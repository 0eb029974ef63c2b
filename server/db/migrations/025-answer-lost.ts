// When a number's send ended with no answer (a timeout, a reset connection): the wait for its
// webhook before it is sent again counts from then, not from its claim (decision 247).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blast_numbers').addColumn('answer_lost_at', 'text').execute();
}
