// The opt-out list (decision 210): numbers that asked, by a keyword message, or that the admin
// entered, to receive no more blasts. One row a number, in Sebar's normalised form. A blast
// keeps how many of its numbers the list left out.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('opt_outs')
    .addColumn('number', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('whatsapp', 'admin')`))
    // The message that did it, as sent; null when the admin added the number.
    .addColumn('keyword', 'text')
    // The channel it came through ('cloud_api'; the gateway's later); null from the admin.
    .addColumn('channel', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The admin who added it; no foreign key: the record outlives the account.
    .addColumn('created_by', 'text')
    .execute();
  await db.schema
    .alterTable('blasts')
    .addColumn('opted_out_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The admin's list, newest first.
  await db.schema
    .createIndex('opt_outs_created')
    .on('opt_outs')
    .columns(['created_at', 'number'])
    .execute();
}
