// Meta keeps an uploaded media file for 30 days, so a blast's kept header image id is good only
// that long: the blast now keeps when its image was uploaded. An image kept before this was
// uploaded when its blast was first sent, so no earlier than the blast was made.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blasts').addColumn('media_uploaded_at', 'text').execute();
  await db
    .updateTable('blasts')
    .set({ media_uploaded_at: sql.ref('created_at') })
    .where('media_id', 'is not', null)
    .execute();
}
