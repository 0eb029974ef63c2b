// WAHA posts a session's status events concurrently, so they may arrive in another order than
// they were made: a device now keeps when its status was last known (a status event's time, or
// when Sebar last read the session), and an event older than that changes nothing. A device
// added before this was last heard no later than its last change.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gateway_devices').addColumn('status_at', 'text').execute();
  await db
    .updateTable('gateway_devices')
    .set({ status_at: sql.ref('updated_at') })
    .execute();
}
