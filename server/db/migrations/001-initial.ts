// The first schema: accounts, the ledger, top-ups, blasts with per-number rows, and the back office.
import { sql, type Kysely, type SchemaModule } from 'kysely';

// Migrations are written against no table types: the schema they build is what they describe.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const s = db.schema;
  await users(s);
  await backOffice(s);
  await pointRequests(s);
  await blasts(s);
  await pointTransactions(s);
  await idempotencyKeys(s);
  await records(s);
}

/** The accounts: each holds its balance and the sequence of its ledger. */
async function users(s: SchemaModule) {
  await s
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('super_admin', 'client')`))
    .addColumn('points', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`points >= 0`),
    )
    .addColumn('ledger_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await s
    .createIndex('users_role_created')
    .on('users')
    .columns(['role', 'created_at', 'id'])
    .execute();
}

/** What the admin keeps: contacts, notes, the one settings row, price tiers. */
async function backOffice(s: SchemaModule) {
  await s
    .createTable('contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await s
    .createTable('notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await s
    .createTable('settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('account_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bank_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('barcode_url', 'text')
    .addColumn('qr_code_file', 'text')
    .addColumn('qr_data_url', 'text')
    .addColumn('allow_images', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await s
    .createTable('pricing_tiers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tier_name', 'text', (c) => c.notNull())
    .addColumn('min_points', 'integer', (c) => c.notNull())
    .addColumn('max_points', 'integer', (c) => c.notNull())
    .addColumn('price_per_point', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

/** Top-up requests a client files and the admin approves or rejects. */
async function pointRequests(s: SchemaModule) {
  await s
    .createTable('point_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('points_requested', 'integer', (c) => c.notNull().check(sql`points_requested > 0`))
    .addColumn('amount_paid', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'approved', 'rejected')`),
    )
    .addColumn('payment_proof_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .addColumn('processed_by', 'text')
    .execute();
  await s
    .createIndex('point_requests_created')
    .on('point_requests')
    .columns(['created_at', 'id'])
    .execute();
  await s
    .createIndex('point_requests_user_created')
    .on('point_requests')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await s.createIndex('point_requests_status').on('point_requests').columns(['status']).execute();
}

/** Blast requests and one row per number sent to. */
async function blasts(s: SchemaModule) {
  await s
    .createTable('blasts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('total_numbers', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'completed', 'rejected', 'cancelled')`),
    )
    .addColumn('successful_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('no_wa_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('points_used', 'integer', (c) => c.notNull())
    .addColumn('admin_notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
  await s.createIndex('blasts_created').on('blasts').columns(['created_at', 'id']).execute();
  await s
    .createIndex('blasts_user_created')
    .on('blasts')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await s.createIndex('blasts_status').on('blasts').columns(['status']).execute();

  await s
    .createTable('blast_numbers')
    .addColumn('blast_id', 'text', (c) => c.notNull().references('blasts.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'success', 'failed', 'no_wa')`),
    )
    .addPrimaryKeyConstraint('blast_numbers_pk', ['blast_id', 'idx'])
    .execute();
}

/** The ledger: one row per change of a balance, gapless per user. */
async function pointTransactions(s: SchemaModule) {
  await s
    .createTable('point_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('topup', 'usage', 'refund', 'adjustment')`),
    )
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('point_request_id', 'text')
    .addColumn('blast_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('point_transactions_user_seq', ['user_id', 'seq'])
    .execute();
  await s
    .createIndex('point_transactions_user_type_created')
    .on('point_transactions')
    .columns(['user_id', 'type', 'created_at'])
    .execute();
  // One credit per approved top-up, enforced by the database as well as by the service.
  await s
    .createIndex('point_transactions_one_topup')
    .on('point_transactions')
    .column('point_request_id')
    .unique()
    .where(sql.ref('type'), '=', 'topup')
    .execute();
  await s
    .createIndex('point_transactions_blast')
    .on('point_transactions')
    .column('blast_id')
    .execute();
}

/** Answers kept so a repeated blast creation returns the first one. */
async function idempotencyKeys(s: SchemaModule) {
  await s
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await s
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

/** Uploaded files, the audit trail and the app's own secrets. */
async function records(s: SchemaModule) {
  await s
    .createTable('uploads')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await s
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await s
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
