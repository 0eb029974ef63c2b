// A whole-database snapshot for tests that prove a refused request changed nothing: every row of
// every table in a stable order, plus the ledger checker's verdict.
import type { Db } from '#server/db/connection.ts';
import { checkLedger, type Violation } from '#server/db/ledger-check.ts';
import type { Database } from '#server/db/schema.ts';

/** Each table with the columns that order its rows. */
const TABLES: { [T in keyof Database]: (keyof Database[T] & string)[] } = {
  users: ['id'],
  contacts: ['id'],
  notes: ['id'],
  settings: ['id'],
  pricing_tiers: ['id'],
  point_requests: ['id'],
  blasts: ['id'],
  blast_numbers: ['blast_id', 'idx'],
  point_transactions: ['id'],
  idempotency_keys: ['user_id', 'key'],
  uploads: ['name'],
  audit_log: ['id'],
  app_secrets: ['name'],
  sebar_migrations: ['name'],
  revoked_tokens: ['jti'],
  summary_counts: ['user_id', 'counter', 'kind'],
  delivery_settings: ['id'],
  whatsapp_templates: ['id'],
  webhook_events: ['id'],
  delivery_engine: ['id'],
  delivery_recipients: ['number'],
  gateway_settings: ['id'],
  gateway_devices: ['session'],
  opt_outs: ['number'],
  whatsapp_lids: ['lid'],
};

export interface Snapshot {
  rows: Record<string, unknown[]>;
  violations: Violation[];
}

export async function snapshot(db: Db): Promise<Snapshot> {
  // All at once: PostgreSQL answers them on several pooled connections.
  const [violations, ...tables] = await Promise.all([
    checkLedger(db),
    ...Object.entries(TABLES).map(async ([table, order]) => {
      let query = db.selectFrom(table as keyof Database).selectAll();
      for (const column of order) query = query.orderBy(column as never);
      // Normalised through JSON so both drivers' number and text shapes compare alike.
      return [table, JSON.parse(JSON.stringify(await query.execute()))] as const;
    }),
  ]);
  return { rows: Object.fromEntries(tables), violations };
}

/** Row counts per table: a short description of a snapshot for failure messages. */
export const counts = (shot: Snapshot) =>
  Object.fromEntries(Object.entries(shot.rows).map(([table, list]) => [table, list.length]));
