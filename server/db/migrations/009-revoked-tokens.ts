// Tokens signed out before they expire (POST /api/auth/logout): each token carries an id (`jti`)
// and the ids of signed-out ones are kept until the token would have expired anyway, so a
// signed-out token stays refused after a restart and on every instance sharing the database.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // Seconds since the epoch, the token's own `exp`: past it the row can go.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // The token check asks, per user of its batch, whether one of the batch's ids is theirs.
  await db.schema
    .createIndex('revoked_tokens_user_id')
    .on('revoked_tokens')
    .columns(['user_id', 'jti'])
    .execute();
  await db.schema
    .createIndex('revoked_tokens_expires_at')
    .on('revoked_tokens')
    .column('expires_at')
    .execute();
}
