// The second channel (issue 29): free text through a self-hosted WhatsApp gateway (WAHA). The
// mode 'gateway', the gateway's settings (one row, secrets sealed), its devices (one WAHA session
// each), the device that sent each number, and where each kept webhook came from.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connection.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await allowGatewayMode(db, engine);

  await db.schema
    .createTable('gateway_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('waha')`))
    .addColumn('base_url', 'text', (c) => c.notNull())
    // Sealed with the server's secret key (modules/delivery/secret-box.ts); null: not set.
    .addColumn('api_key', 'text')
    .addColumn('webhook_secret', 'text')
    // The name of the first device's session; more devices are added on 'Pengiriman'.
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('min_delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('daily_limit_per_device', 'integer', (c) => c.notNull())
    // 'HH:MM-HH:MM' in Asia/Jakarta.
    .addColumn('sending_hours', 'text', (c) => c.notNull())
    .addColumn('check_numbers', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('gateway_devices')
    // The WAHA session's name.
    .addColumn('session', 'text', (c) => c.primaryKey())
    // The paired WhatsApp number ('628…'), once WORKING.
    .addColumn('phone', 'text')
    .addColumn('push_name', 'text')
    // WAHA's session status as last heard: STOPPED, STARTING, SCAN_QR_CODE, WORKING, FAILED.
    .addColumn('status', 'text', (c) => c.notNull())
    // Sebar's own hold on the device (463, 475, a failed send): until when and why (Indonesian).
    .addColumn('paused_until', 'text')
    .addColumn('pause_reason', 'text')
    .addColumn('error_code', 'integer')
    // Human pacing: the device's next send may start then.
    .addColumn('next_send_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The device that took the number (gateway blasts only); its sends today, by when taken.
  await db.schema.alterTable('blast_numbers').addColumn('device', 'text').execute();
  await db.schema
    .createIndex('blast_numbers_device')
    .on('blast_numbers')
    .columns(['device', 'claimed_at'])
    .where(sql.ref('device'), 'is not', null)
    .execute();

  await db.schema
    .alterTable('webhook_events')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('whatsapp'))
    .execute();
}

/** The mode's check names the new mode: SQLite rebuilds the table, PostgreSQL swaps the check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function allowGatewayMode(db: Kysely<any>, engine: Engine) {
  const modes = sql`mode in ('manual', 'cloud_api', 'gateway')`;
  if (engine === 'postgres') {
    await sql`alter table delivery_settings drop constraint delivery_settings_mode_check`.execute(
      db,
    );
    await sql`alter table delivery_settings add constraint delivery_settings_mode_check check (${modes})`.execute(
      db,
    );
    return;
  }
  const { rows } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'delivery_settings'`.execute(db);
  const created = rows[0]!.sql.replace(
    /mode in \('manual', 'cloud_api'\)/,
    "mode in ('manual', 'cloud_api', 'gateway')",
  );
  if (created === rows[0]!.sql) throw new Error('delivery_settings: mode check not found');
  await sql`alter table delivery_settings rename to delivery_settings_old`.execute(db);
  await sql.raw(created).execute(db);
  await sql`insert into delivery_settings select * from delivery_settings_old`.execute(db);
  await sql`drop table delivery_settings_old`.execute(db);
}
