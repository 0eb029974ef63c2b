// What API tests check answers against: SPEC section 3's field lists, the clean error shape
// (an Indonesian `detail`, nothing internal), and a whole-database snapshot for "nothing changed".
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '#server/db/connection.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import type { ApiAnswer } from './helpers.ts';

/** One field's expected JSON type; a trailing `?` also allows null. */
type FieldType =
  | 'string'
  | 'int'
  | 'number'
  | 'boolean'
  | 'iso'
  | 'array'
  | 'object'
  | 'string?'
  | 'iso?'
  | 'object?';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** SPEC section 3 (and DESIGN section 3 for the sign-in answer): the fields each answer carries. */
export const SPEC_FIELDS = {
  login: { access_token: 'string', token_type: 'string', user: 'object' },
  loginUser: {
    id: 'string',
    username: 'string',
    email: 'string',
    role: 'string',
    points: 'int',
    is_active: 'boolean',
  },
  adminDashboard: {
    total_users: 'int',
    total_blasts: 'int',
    pending_blasts: 'int',
    pending_points: 'int',
  },
  clientDashboard: {
    today_blasts: 'int',
    points_used_today: 'int',
    points_refunded_today: 'int',
    total_blasts: 'int',
    current_points: 'int',
  },
  contact: {
    id: 'string',
    platform: 'string',
    value: 'string',
    is_active: 'boolean',
    created_at: 'iso',
  },
  note: { id: 'string', title: 'string', content: 'string', created_at: 'iso', updated_at: 'iso' },
  settings: {
    account_number: 'string',
    account_name: 'string',
    bank_name: 'string',
    barcode_url: 'string?',
    qr_code_file: 'string?',
    qr_data_url: 'string?',
    allow_images: 'boolean',
  },
  qrUpload: { file_url: 'string', data_url: 'string' },
  imageUpload: { url: 'string' },
  pricingTier: {
    id: 'string',
    tier_name: 'string',
    min_points: 'int',
    max_points: 'int',
    price_per_point: 'number',
    created_at: 'iso',
  },
  pointRequest: {
    id: 'string',
    user_id: 'string',
    username: 'string',
    points_requested: 'int',
    amount_paid: 'number',
    status: 'string',
    created_at: 'iso',
    processed_at: 'iso?',
    payment_proof_url: 'string?',
  },
  blast: {
    id: 'string',
    user_id: 'string',
    username: 'string',
    message: 'string',
    image_url: 'string?',
    target_numbers: 'array',
    status: 'string',
    created_at: 'iso',
    successful_count: 'int',
    failed_count: 'int',
    no_wa_count: 'int',
    refund_points: 'int',
    points_used: 'int',
    admin_notes: 'string?',
    results: 'object',
    number_statuses: 'object',
  },
  blastResults: { successful_count: 'int', failed_count: 'int' },
  clientUser: {
    id: 'string',
    username: 'string',
    email: 'string',
    points: 'int',
    is_active: 'boolean',
    created_at: 'iso',
    role: 'string',
  },
  transaction: {
    id: 'string',
    type: 'string',
    amount: 'int',
    description: 'string',
    created_at: 'iso',
  },
  page: { items: 'array', total: 'int', page: 'int', page_size: 'int', summary: 'object' },
} satisfies Record<string, Record<string, FieldType>>;

export type SpecEntity = keyof typeof SPEC_FIELDS;

function typeOk(value: unknown, type: FieldType): boolean {
  const nullable = type.endsWith('?');
  if (nullable && value === null) return true;
  switch (type.replace('?', '')) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'iso':
      return typeof value === 'string' && ISO_UTC.test(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** Asserts every SPEC field of `entity` is present with its type; names the wrong ones. */
export function expectSpecFields(value: unknown, entity: SpecEntity): void {
  expect(typeof value === 'object' && value !== null, `${entity} is an object`).toBe(true);
  const record = value as Record<string, unknown>;
  const wrong = Object.entries(SPEC_FIELDS[entity] as Record<string, FieldType>)
    .filter(([field, type]) => !(field in record) || !typeOk(record[field], type))
    .map(([field, type]) => `${field}: want ${type}, got ${JSON.stringify(record[field])}`);
  expect(wrong, `${entity} fields`).toEqual([]);
  if (entity === 'blast') {
    // results holds the counts; number_statuses is keyed by each target number's index.
    expectSpecFields(record.results, 'blastResults');
    const numbers = record.target_numbers as unknown[];
    const statuses = record.number_statuses as Record<string, unknown>;
    expect(Object.keys(statuses).sort()).toEqual(numbers.map((_, i) => String(i)).sort());
    for (const status of Object.values(statuses))
      expect(['pending', 'success', 'failed', 'no_wa']).toContain(status);
  }
}

// Words that only an untranslated framework message, a stack trace or SQL would carry.
const LEAKS =
  /\b(expected|received|invalid|required|must|unrecognized|unexpected|cannot|failed|error|exception|stack|select|insert|update|delete|sqlite|postgres|syntax|constraint|violates|undefined)\b|\.ts:\d|node_modules|\n\s+at /i;
const INDONESIAN =
  /\b(tidak|harus|maksimal|minimal|terlalu|diharapkan|kunci|sudah|belum|mohon|silakan|anda|hanya|ukuran|format|nomor|poin|gagal|jumlah|upload|pilihan|indeks|tier|klien|email|salah|berbeda)\b/i;

/** A 4xx answer with a single Indonesian `detail` (and optional field errors), nothing internal. */
export function expectCleanError(
  answer: { status: number; body: unknown; headers: Headers },
  status?: number,
): void {
  const text = JSON.stringify(answer.body);
  if (status !== undefined) expect(answer.status, text).toBe(status);
  expect(answer.status, text).toBeGreaterThanOrEqual(400);
  expect(answer.status, text).toBeLessThan(500);
  expect(answer.headers.get('content-type') ?? '').toContain('application/json');
  const body = answer.body as { detail?: unknown; errors?: unknown };
  expect(typeof body?.detail, text).toBe('string');
  expect(
    Object.keys(body).filter((k) => k !== 'detail' && k !== 'errors'),
    text,
  ).toEqual([]);
  expect(body.detail as string, text).toMatch(INDONESIAN);
  expect(text).not.toMatch(LEAKS);
}

/** The product's tables on either engine (migration records and secrets left out). */
async function productTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'
      and name not like 'sqlite_%'`
    .execute(db)
    .catch(() =>
      sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db),
    );
  return rows
    .map((r) => r.name)
    .filter((name) => !['sebar_migrations', 'app_secrets'].includes(name))
    .sort();
}

/** Every row of every table the product writes, each table's rows in a fixed order. */
export async function snapshot(db: Db): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of await productTables(db)) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(db);
    result[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return result;
}

/** Runs `attack` and asserts the database is exactly as before and the ledger still holds. */
export async function expectUnchanged(db: Db, attack: () => Promise<void>): Promise<void> {
  const before = await snapshot(db);
  await attack();
  expect(await snapshot(db)).toEqual(before);
  expect(await checkLedger(db)).toEqual([]);
}

/**
 * A blast created with an Idempotency-Key, then sent again: the retry answers the same blast,
 * changes nothing and is charged once; the same key with `changed` values is refused (422) and
 * changes nothing either.
 */
export async function expectIdempotentBlast(
  db: Db,
  send: (body: unknown, headers: Record<string, string>) => Promise<ApiAnswer>,
  balance: () => Promise<number>,
  { body, changed, key }: { body: { target_numbers: string[] }; changed: unknown; key: string },
): Promise<void> {
  const headers = { 'Idempotency-Key': key };
  const before = await balance();
  const first = await send(body, headers);
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  let again: ApiAnswer | undefined;
  await expectUnchanged(db, async () => {
    again = await send(body, headers);
  });
  expect(again!.status).toBe(201);
  expect(again!.body).toEqual(first.body);
  expect(await balance()).toBe(before - body.target_numbers.length);
  await expectUnchanged(db, async () => {
    const other = await send(changed, headers);
    expectCleanError(other, 422);
    expect(other.body.detail).toBe('Idempotency-Key sudah dipakai untuk permintaan yang berbeda');
  });
}
