// The blasts that carry an image, found by its address: the hourly removal of unused uploads asks
// of each old upload whether a blast names it. Blasts without an image are not in the index, so
// blast creation without one writes nothing more.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('blasts_image')
    .on('blasts')
    .column('image_url')
    .where(sql.ref('image_url'), 'is not', null)
    .execute();
}
