// The global summary figures sum the per-client counters by status: covering indexes let both
// engines read them in status order without sorting or touching the table.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('blast_counts_status')
    .on('blast_counts')
    .columns(['status', 'n'])
    .execute();
  await db.schema
    .createIndex('point_request_counts_status')
    .on('point_request_counts')
    .columns(['status', 'n', 'points'])
    .execute();
}
