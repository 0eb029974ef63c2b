// Applies pending migrations at start, each in its own transaction with its record, so a crash
// leaves the schema either before or after a migration, never in between.
import { sql, type Kysely } from 'kysely';
import type { DbHandle, Engine } from './connection.ts';
import * as initial from './migrations/001-initial.ts';
import * as blastImages from './migrations/006-blast-images.ts';
import * as bigintBalances from './migrations/007-bigint-balances.ts';
import * as uniqueUsernames from './migrations/008-unique-usernames.ts';
import * as revokedTokens from './migrations/009-revoked-tokens.ts';
import * as summaryCounts from './migrations/010-summary-counts.ts';
import * as delivery from './migrations/011-delivery.ts';
import * as deliveryOutbox from './migrations/012-delivery-outbox.ts';
import * as deliveryPacing from './migrations/013-delivery-pacing.ts';
import * as optOuts from './migrations/014-opt-outs.ts';
import * as gateway from './migrations/015-gateway.ts';
import * as webhookEventsBySource from './migrations/016-webhook-events-by-source.ts';
import * as webhookEventsDue from './migrations/017-webhook-events-due.ts';
import * as sendSlots from './migrations/018-send-slots.ts';
import * as templateStatusTime from './migrations/019-template-status-time.ts';
import * as mediaUploadTime from './migrations/020-media-upload-time.ts';
import * as deviceStatusTime from './migrations/021-device-status-time.ts';
import * as webhookSecretPrevious from './migrations/022-webhook-secret-previous.ts';
import * as whatsappLids from './migrations/023-whatsapp-lids.ts';
import * as engineWarning from './migrations/024-engine-warning.ts';
import * as answerLost from './migrations/025-answer-lost.ts';
import * as failedAttempt from './migrations/026-failed-attempt.ts';
import * as webhooksSince from './migrations/027-webhooks-since.ts';

/** A migration gets its engine for the few changes only one of them needs. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Migration = { up(db: Kysely<any>, engine: Engine): Promise<void> };

export const MIGRATIONS: [string, Migration][] = [
  ['001-initial', initial],
  ['006-blast-images', blastImages],
  ['007-bigint-balances', bigintBalances],
  ['008-unique-usernames', uniqueUsernames],
  ['009-revoked-tokens', revokedTokens],
  // 002-005 made six counter tables, which 010 replaces by one; a database that applied them
  // keeps their records, a new one never makes them.
  ['010-summary-counts', summaryCounts],
  ['011-delivery', delivery],
  ['012-delivery-outbox', deliveryOutbox],
  ['013-delivery-pacing', deliveryPacing],
  ['014-opt-outs', optOuts],
  ['015-gateway', gateway],
  ['016-webhook-events-by-source', webhookEventsBySource],
  ['017-webhook-events-due', webhookEventsDue],
  ['018-send-slots', sendSlots],
  ['019-template-status-time', templateStatusTime],
  ['020-media-upload-time', mediaUploadTime],
  ['021-device-status-time', deviceStatusTime],
  ['022-webhook-secret-previous', webhookSecretPrevious],
  ['023-whatsapp-lids', whatsappLids],
  ['024-engine-warning', engineWarning],
  ['025-answer-lost', answerLost],
  ['026-failed-attempt', failedAttempt],
  ['027-webhooks-since', webhooksSince],
];

/** Applies `migrations` (all of them unless a test asks for the first few). */
export async function migrate(
  { db, engine }: DbHandle,
  migrations = MIGRATIONS,
): Promise<string[]> {
  // Under the same lock as the migrations: on PostgreSQL two instances starting together on a new
  // database both ran CREATE TABLE IF NOT EXISTS and one failed on the catalog's unique index.
  await db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await sql`select pg_advisory_xact_lock(7362001)`.execute(trx);
    await trx.schema
      .createTable('sebar_migrations')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'text', (c) => c.notNull())
      .execute();
  });
  const applied: string[] = [];
  for (const [name, migration] of migrations) {
    await db.transaction().execute(async (trx) => {
      // Two instances starting together on PostgreSQL: the second waits, then finds it done.
      if (engine === 'postgres') await sql`select pg_advisory_xact_lock(7362001)`.execute(trx);
      const done = await trx
        .selectFrom('sebar_migrations')
        .select('name')
        .where('name', '=', name)
        .executeTakeFirst();
      if (done) return;
      await migration.up(trx, engine);
      await trx
        .insertInto('sebar_migrations')
        .values({ name, applied_at: new Date().toISOString() })
        .execute();
      applied.push(name);
    });
  }
  return applied;
}
