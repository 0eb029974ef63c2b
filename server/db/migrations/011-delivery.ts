// Delivery through the WhatsApp Cloud API: its settings (one row, secrets sealed), the business
// account's message templates as last synced, and every signed webhook as it came in.
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('delivery_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('manual', 'cloud_api')`))
    .addColumn('graph_url', 'text', (c) => c.notNull())
    .addColumn('api_version', 'text', (c) => c.notNull())
    .addColumn('phone_number_id', 'text', (c) => c.notNull())
    .addColumn('business_account_id', 'text', (c) => c.notNull())
    // Sealed with the server's secret key (modules/delivery/secret-box.ts); null: not set.
    .addColumn('access_token', 'text')
    .addColumn('app_secret', 'text')
    .addColumn('verify_token', 'text')
    .addColumn('messages_per_second', 'integer', (c) => c.notNull())
    .addColumn('daily_recipient_limit', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('whatsapp_templates')
    // Meta's id of the template (one per name and language).
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    // The template's components as Meta answers them, JSON.
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('synced_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('whatsapp_templates_name_language')
    .on('whatsapp_templates')
    .columns(['name', 'language'])
    .unique()
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // A repeated delivery of the same bytes is the same event.
    .addColumn('body_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
}
