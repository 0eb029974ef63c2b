// Fills a fresh database (SQLite file or PostgreSQL schema) to production size with data that
// satisfies every ledger invariant: per client, in time order, so seq and balance_after chain.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { loadSqlite } from '#server/db/sqlite-driver.ts';
import { sql } from 'kysely';
import pg from 'pg';
import type { DbHandle } from '#server/db/connection.ts';
import { openPostgres } from '#server/db/postgres.ts';
import type {
  BlastsTable,
  PointRequestsTable,
  PointTransactionsTable,
  UsersTable,
} from '#server/db/schema.ts';
import { openSqlite } from '#server/db/sqlite.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { migrate } from '#server/db/migrate.ts';
import { fillSummaryCounts } from '#server/db/summary-counts.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { ensureAdmin } from '#server/modules/users/users.service.ts';

/** Changes whenever the generated data changes shape, so cached files are made again. */
export const GENERATOR_VERSION = 3;

export const BENCH_ADMIN = { email: 'admin@bench.test', password: 'bench-admin-12345' };
export const CLIENT_PASSWORD = 'bench-client-12345';
export const clientEmail = (i: number) => `client${i}@bench.test`;

export const PRODUCTION = { clients: 2000, blasts: 100_000, ledger: 300_000, requests: 50_000 };
/** Enough pending top-ups for the approval figure at any scale. */
const MIN_PENDING_REQUESTS = 400;

export interface Sizes {
  clients: number;
  blasts: number;
  ledger: number;
  requests: number;
  numbers: number;
  pendingRequests: number;
}

export interface GenerateResult {
  sizes: Sizes;
  seconds: number;
  checkSeconds: number;
  /** A blast of exactly 500 numbers owned by client 0. */
  bigBlastId: string;
}

export type Target =
  { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; schema: string };

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** mulberry32: the same data for the same scale on every run and engine. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The rows the generator writes: the schema's own types, without the columns left to their
// defaults (a generated blast is a manual one with nothing opted out).
type UserRow = UsersTable;
type RequestRow = PointRequestsTable;
type BlastRow = Omit<
  BlastsTable,
  'delivery_mode' | 'template' | 'media_id' | 'media_uploaded_at' | 'opted_out_count'
>;
type LedgerRow = PointTransactionsTable;
interface ClientData {
  user: UserRow;
  requests: RequestRow[];
  blasts: BlastRow[];
  ledger: LedgerRow[];
}

const WORDS =
  'halo promo diskon spesial hari ini saja belanja hemat toko kami buka gratis ongkir member baru ayo kunjungi sekarang juga terima kasih pelanggan setia'.split(
    ' ',
  );

/** Splits `total` items over clients with a skew (a few large clients, many small ones). */
function spread(total: number, weights: number[], rnd: () => number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / sum));
  let rest = total - counts.reduce((a, b) => a + b, 0);
  while (rest > 0) {
    counts[Math.floor(rnd() * counts.length)]! += 1;
    rest -= 1;
  }
  return counts;
}

export function sizesFor(scale: number) {
  const n = (x: number, min: number) => Math.max(min, Math.round(x * scale));
  return {
    clients: n(PRODUCTION.clients, 20),
    blasts: n(PRODUCTION.blasts, 50),
    ledger: n(PRODUCTION.ledger, 150),
    requests: n(PRODUCTION.requests, MIN_PENDING_REQUESTS + 50),
  };
}

/** Yields the clients one by one, each with its rows in time order and a chained ledger. */
function* plan(
  scale: number,
  passwordHash: string,
  adminId: string,
  nowMs: number,
): Generator<ClientData> {
  const sizes = sizesFor(scale);
  const rnd = random(20240601);
  const weights = Array.from({ length: sizes.clients }, (_, i) => 1 / (i + 1) ** 0.8);
  const blastCounts = spread(sizes.blasts, weights, rnd);
  // Every client has its first, large, approved top-up; the rest are spread with the same skew.
  const requestCounts = spread(sizes.requests - sizes.clients, weights, rnd).map((c) => c + 1);
  // Pending top-ups: at least MIN_PENDING_REQUESTS overall, the extra ones on client 0.
  const pendingShare = 0.04;
  const expectedPending = Math.round((sizes.requests - sizes.clients) * pendingShare);
  const extraPending = Math.max(0, MIN_PENDING_REQUESTS - expectedPending);
  // Expected ledger entries before adjustments: one usage per blast, one refund for most
  // blasts, one credit per approved top-up; adjustments make up the rest.
  const expectedOthers =
    sizes.blasts * (1 + 0.91 * 0.97 + 0.06) +
    (sizes.requests - sizes.clients) * 0.9 +
    sizes.clients;
  const adjustmentCounts = spread(
    Math.max(0, Math.round(sizes.ledger - expectedOthers)),
    weights,
    rnd,
  );
  const start = nowMs - 730 * DAY;
  const recent = nowMs - 3 * DAY;
  const iso = (ms: number) => new Date(Math.min(ms, nowMs - 1000)).toISOString();
  let bigBlastMade = false;

  for (let c = 0; c < sizes.clients; c += 1) {
    const created = start + rnd() * 60 * DAY;
    const user: UserRow = {
      id: crypto.randomUUID(),
      username: `klien${c}`,
      email: clientEmail(c),
      password_hash: passwordHash,
      role: 'client',
      points: 0,
      ledger_seq: 0,
      is_active: rnd() < 0.95 || c < 100 ? 1 : 0,
      token_version: 0,
      created_at: iso(created),
      updated_at: iso(created),
    };
    const open = created + 2 * HOUR;
    const between = (from: number, to: number) => from + rnd() * (to - from);
    type Event = {
      at: number;
      order: number;
      make: () => Omit<LedgerRow, 'seq' | 'balance_after'>;
    };
    const events: Event[] = [];
    const entry = (
      type: LedgerRow['type'],
      delta: number,
      description: string,
      at: number,
      ids: { request?: string; blast?: string } = {},
    ) => ({
      id: crypto.randomUUID(),
      user_id: user.id,
      type,
      delta,
      description,
      point_request_id: ids.request ?? null,
      blast_id: ids.blast ?? null,
      created_at: iso(at),
    });

    const blasts: BlastRow[] = [];
    let usage = 0;
    for (let b = 0; b < blastCounts[c]!; b += 1) {
      // Mostly small blasts, a few near 500: 50 numbers on average, 5 million rows at full size.
      const total =
        !bigBlastMade && c === 0
          ? 500
          : rnd() < 0.89
            ? 5 + Math.floor(rnd() * 36)
            : 41 + Math.floor(rnd() * 460);
      bigBlastMade = true;
      const roll = rnd();
      const status: BlastRow['status'] =
        roll < 0.03
          ? 'pending'
          : roll < 0.94
            ? 'completed'
            : roll < 0.97
              ? 'rejected'
              : 'cancelled';
      const at = status === 'pending' ? between(recent, nowMs) : between(open + HOUR, nowMs);
      let s = 0;
      let f = 0;
      let n = 0;
      let refund = 0;
      if (status === 'completed') {
        f = Math.floor(total * rnd() * 0.15);
        n = Math.floor(total * rnd() * 0.1);
        if (rnd() < 0.97 && f + n === 0 && total > 1) f = 1;
        s = total - f - n;
        refund = f + n;
      } else if (status !== 'pending') refund = total;
      const processed = status === 'pending' ? null : at + between(HOUR, 48 * HOUR);
      const blast: BlastRow = {
        id: crypto.randomUUID(),
        user_id: user.id,
        message: Array.from(
          { length: 8 + Math.floor(rnd() * 40) },
          () => WORDS[Math.floor(rnd() * WORDS.length)],
        ).join(' '),
        image_url: null,
        total_numbers: total,
        status,
        successful_count: s,
        failed_count: f,
        no_wa_count: n,
        refund_points: refund,
        points_used: total,
        admin_notes: status === 'completed' && rnd() < 0.2 ? 'Selesai dikirim' : null,
        created_at: iso(at),
        processed_at: processed === null ? null : iso(processed),
      };
      blasts.push(blast);
      usage += total;
      events.push({
        at,
        order: 1,
        make: () =>
          entry('usage', -total, `Blast WhatsApp ke ${total} nomor`, at, { blast: blast.id }),
      });
      if (refund > 0 && processed !== null) {
        const description =
          status === 'completed'
            ? `Refund blast: ${f} gagal, ${n} tanpa WhatsApp`
            : status === 'rejected'
              ? 'Refund penuh: blast ditolak admin'
              : 'Refund penuh: blast dibatalkan';
        events.push({
          at: processed,
          order: 2,
          make: () => entry('refund', refund, description, processed, { blast: blast.id }),
        });
      }
    }

    const requests: RequestRow[] = [];
    const pendingHere = c === 0 ? extraPending : 0;
    for (let r = 0; r < requestCounts[c]! + pendingHere; r += 1) {
      const first = r === 0;
      const roll = rnd();
      const status: RequestRow['status'] = first
        ? 'approved'
        : r >= requestCounts[c]! || roll < pendingShare
          ? 'pending'
          : roll < 0.94
            ? 'approved'
            : 'rejected';
      // The first top-up pays for every blast the client will send, so no balance goes negative.
      const points = first
        ? usage + 1000
        : [100, 250, 500, 1000, 2500, 5000][Math.floor(rnd() * 6)]!;
      const at = first
        ? created + HOUR
        : status === 'pending'
          ? between(recent, nowMs)
          : between(open, nowMs);
      const processed = status === 'pending' ? null : first ? open : at + between(HOUR, 24 * HOUR);
      const request: RequestRow = {
        id: crypto.randomUUID(),
        user_id: user.id,
        points_requested: points,
        amount_paid: points * 150,
        status,
        payment_proof_url: rnd() < 0.8 ? `https://bukti.example/transfer/${c}-${r}.jpg` : null,
        created_at: iso(at),
        processed_at: processed === null ? null : iso(processed),
        processed_by: processed === null ? null : adminId,
      };
      requests.push(request);
      if (status === 'approved') {
        events.push({
          at: processed!,
          order: first ? 0 : 3,
          make: () =>
            entry('topup', points, `Top up ${points} poin disetujui admin`, processed!, {
              request: request.id,
            }),
        });
      }
    }

    for (let a = 0; a < adjustmentCounts[c]!; a += 1) {
      const at = between(open + HOUR, nowMs);
      const amount = 1 + Math.floor(rnd() * 500);
      events.push({
        at,
        order: 4,
        make: () => entry('adjustment', amount, 'Penyesuaian saldo oleh admin', at),
      });
    }

    events.sort((x, y) => x.at - y.at || x.order - y.order);
    const ledger: LedgerRow[] = [];
    let balance = 0;
    let usageAhead = usage;
    for (const event of events) {
      const row = event.make();
      if (row.type === 'usage') usageAhead += row.delta;
      // Some adjustments take points back, never what the blasts still to come will spend.
      if (row.type === 'adjustment' && balance - row.delta >= usageAhead && rnd() < 0.3) {
        row.delta = -row.delta;
      }
      balance += row.delta;
      if (balance < 0) throw new Error(`generator bug: negative balance for client ${c}`);
      ledger.push({ ...row, seq: ledger.length + 1, balance_after: balance });
    }
    for (const row of ledger) {
      if (row.type === 'adjustment') {
        row.description = `Penyesuaian saldo oleh admin (${row.balance_after - row.delta} → ${row.balance_after})`;
      }
    }
    user.points = balance;
    user.ledger_seq = ledger.length;
    const last = ledger.at(-1);
    if (last) user.updated_at = last.created_at;
    yield { user, requests, blasts, ledger };
  }
}

const COLUMNS = {
  users: [
    'id',
    'username',
    'email',
    'password_hash',
    'role',
    'points',
    'ledger_seq',
    'is_active',
    'token_version',
    'created_at',
    'updated_at',
  ],
  point_requests: [
    'id',
    'user_id',
    'points_requested',
    'amount_paid',
    'status',
    'payment_proof_url',
    'created_at',
    'processed_at',
    'processed_by',
  ],
  blasts: [
    'id',
    'user_id',
    'message',
    'image_url',
    'total_numbers',
    'status',
    'successful_count',
    'failed_count',
    'no_wa_count',
    'refund_points',
    'points_used',
    'admin_notes',
    'created_at',
    'processed_at',
  ],
  point_transactions: [
    'id',
    'user_id',
    'seq',
    'type',
    'delta',
    'balance_after',
    'description',
    'point_request_id',
    'blast_id',
    'created_at',
  ],
} as const;
type Table = keyof typeof COLUMNS;

const PG_TYPES: Record<Table, string[]> = {
  users: ['text', 'text', 'text', 'text', 'text', 'int', 'int', 'int', 'int', 'text', 'text'],
  point_requests: ['text', 'text', 'int', 'bigint', 'text', 'text', 'text', 'text', 'text'],
  blasts: [
    'text',
    'text',
    'text',
    'text',
    'int',
    'text',
    'int',
    'int',
    'int',
    'int',
    'int',
    'text',
    'text',
    'text',
  ],
  point_transactions: ['text', 'text', 'int', 'text', 'int', 'int', 'text', 'text', 'text', 'text'],
};

const TIERS = [
  { tier_name: 'Basic', min_points: 1, max_points: 999, price_per_point: 150 },
  { tier_name: 'Pro', min_points: 1000, max_points: 9999, price_per_point: 140 },
  { tier_name: 'Bisnis', min_points: 10000, max_points: 100_000_000, price_per_point: 120 },
];

/** Per-number rows by position (success, failed, no WA, pending), made by the database itself. */
const STATUS_BY_POSITION = (i: string) => `case when ${i} < b.successful_count then 'success'
  when ${i} < b.successful_count + b.failed_count then 'failed'
  when ${i} < b.successful_count + b.failed_count + b.no_wa_count then 'no_wa' else 'pending' end`;

async function prepareSchema(handle: DbHandle) {
  await migrate(handle);
  await ensureAdmin(handle, BENCH_ADMIN.email, BENCH_ADMIN.password);
  const admin = await handle.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'super_admin')
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await handle.db
    .insertInto('pricing_tiers')
    .values(TIERS.map((t) => ({ ...t, id: crypto.randomUUID(), created_at: at })))
    .execute();
  return admin.id;
}

function emptySizes(): Sizes {
  return { clients: 0, blasts: 0, ledger: 0, requests: 0, numbers: 0, pendingRequests: 0 };
}

function count(sizes: Sizes, data: ClientData) {
  sizes.clients += 1;
  sizes.blasts += data.blasts.length;
  sizes.ledger += data.ledger.length;
  sizes.requests += data.requests.length;
  sizes.numbers += data.blasts.reduce((n, b) => n + b.total_numbers, 0);
  sizes.pendingRequests += data.requests.filter((r) => r.status === 'pending').length;
}

async function generateSqlite(file: string, scale: number, log: (s: string) => void) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const handle = openSqlite(file);
  const adminId = await prepareSchema(handle);
  await handle.close();

  const db = new (loadSqlite())(file);
  db.pragma('journal_mode = WAL');
  // Only while generating: the file is thrown away if this process dies.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('foreign_keys = OFF');
  const insert = Object.fromEntries(
    Object.entries(COLUMNS).map(([table, cols]) => [
      table,
      db.prepare(
        `insert into ${table} (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`,
      ),
    ]),
  ) as Record<Table, SQLite.Statement>;
  const put = (table: Table, row: object) =>
    insert[table].run(...COLUMNS[table].map((c) => (row as Record<string, unknown>)[c]));

  const sizes = emptySizes();
  let bigBlastId = '';
  const batch: ClientData[] = [];
  const flush = db.transaction((items: ClientData[]) => {
    for (const data of items) {
      put('users', data.user);
      for (const r of data.requests) put('point_requests', r);
      for (const b of data.blasts) put('blasts', b);
      for (const t of data.ledger) put('point_transactions', t);
    }
  });
  const passwordHash = await hashPassword(CLIENT_PASSWORD);
  for (const data of plan(scale, passwordHash, adminId, Date.now())) {
    if (!bigBlastId) bigBlastId = data.blasts.find((b) => b.total_numbers === 500)?.id ?? '';
    count(sizes, data);
    batch.push(data);
    if (batch.length >= 50) flush(batch.splice(0));
  }
  flush(batch.splice(0));
  log(`rows: ${JSON.stringify(sizes)}; making per-number rows`);

  const { maxRow } = db.prepare('select max(rowid) as maxRow from blasts').get() as {
    maxRow: number;
  };
  const numbers =
    db.prepare(`with recursive c(i) as (select 0 union all select i + 1 from c where i < 499)
    insert into blast_numbers (blast_id, idx, number, status)
    select b.id, c.i, '62812' || substr('0000000' || ((b.rowid * 7919 + c.i * 104729) % 100000000), -8),
      ${STATUS_BY_POSITION('c.i')}
    from blasts b join c on c.i < b.total_numbers
    where b.rowid between ? and ?
    order by b.id, c.i`);
  const chunk = 5000;
  for (let from = 1; from <= maxRow; from += chunk) {
    db.transaction(() => numbers.run(from, from + chunk - 1))();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { sizes, bigBlastId };
}

async function generatePostgres(
  url: string,
  schema: string,
  scale: number,
  log: (s: string) => void,
) {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query(`drop schema if exists ${schema} cascade`);
  await setup.query(`create schema ${schema}`);
  await setup.end();
  const handle = openPostgres(url, schema, 2);
  const adminId = await prepareSchema(handle);
  await handle.close();

  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  // Foreign-key triggers off while loading (the data is made consistent), the primary key of
  // the per-number rows built once at the end rather than row by row.
  await client.query('set session_replication_role = replica');
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query('alter table blast_numbers drop constraint blast_numbers_pk');

  const pending: Record<Table, unknown[][]> = {
    users: [],
    point_requests: [],
    blasts: [],
    point_transactions: [],
  };
  const flushTable = async (table: Table) => {
    const rows = pending[table];
    if (rows.length === 0) return;
    const cols = COLUMNS[table];
    const arrays = cols.map((_, i) => rows.map((r) => r[i]));
    const types = PG_TYPES[table];
    await client.query(
      `insert into ${table} (${cols.join(', ')}) select * from unnest(${cols
        .map((_, i) => `$${i + 1}::${types[i]}[]`)
        .join(', ')})`,
      arrays,
    );
    pending[table] = [];
  };
  const put = async (table: Table, row: object) => {
    pending[table].push(COLUMNS[table].map((c) => (row as Record<string, unknown>)[c]));
    if (pending[table].length >= 5000) await flushTable(table);
  };

  const sizes = emptySizes();
  let bigBlastId = '';
  const passwordHash = await hashPassword(CLIENT_PASSWORD);
  await client.query('begin');
  for (const data of plan(scale, passwordHash, adminId, Date.now())) {
    if (!bigBlastId) bigBlastId = data.blasts.find((b) => b.total_numbers === 500)?.id ?? '';
    count(sizes, data);
    await put('users', data.user);
    for (const r of data.requests) await put('point_requests', r);
    for (const b of data.blasts) await put('blasts', b);
    for (const t of data.ledger) await put('point_transactions', t);
  }
  for (const table of Object.keys(COLUMNS) as Table[]) await flushTable(table);
  await client.query('commit');
  log(`rows: ${JSON.stringify(sizes)}; making per-number rows`);
  await client.query(`insert into blast_numbers (blast_id, idx, number, status)
    select b.id, g.i,
      '62812' || lpad(((abs(hashtext(b.id)::bigint) * 7919 + g.i * 104729) % 100000000)::text, 8, '0'),
      ${STATUS_BY_POSITION('g.i')}
    from blasts b cross join lateral generate_series(0, b.total_numbers - 1) as g(i)`);
  await client.query(
    'alter table blast_numbers add constraint blast_numbers_pk primary key (blast_id, idx)',
  );
  await client.query('set session_replication_role = origin');
  // A production database has been vacuumed and analysed by autovacuum.
  await client.query('vacuum analyze');
  await client.end();
  return { sizes, bigBlastId };
}

export async function generate(
  target: Target,
  scale: number,
  log: (s: string) => void = () => undefined,
): Promise<GenerateResult> {
  const started = performance.now();
  const { sizes, bigBlastId } =
    target.engine === 'sqlite'
      ? await generateSqlite(target.file, scale, log)
      : await generatePostgres(target.url, target.schema, scale, log);
  const seconds = (performance.now() - started) / 1000;
  log(`generated in ${seconds.toFixed(1)} s; checking the ledger invariants`);
  const checkStarted = performance.now();
  const handle =
    target.engine === 'sqlite'
      ? openSqlite(target.file)
      : openPostgres(target.url, target.schema, 2);
  try {
    // The loaders bypass the services, so the summary counts are made once from the rows.
    await fillSummaryCounts(handle.db);
    // Refilling left every row of the counts dead once: vacuumed, as autovacuum would.
    if (target.engine === 'postgres') await sql`vacuum analyze summary_counts`.execute(handle.db);
    const violations = await checkLedger(handle.db);
    if (violations.length > 0) {
      throw new Error(
        `generated data breaks the ledger: ${JSON.stringify(violations.slice(0, 5))}`,
      );
    }
  } finally {
    await handle.close();
  }
  const checkSeconds = (performance.now() - checkStarted) / 1000;
  log(`ledger check passed in ${checkSeconds.toFixed(1)} s`);
  return { sizes, seconds, checkSeconds, bigBlastId };
}

// `node --import tsx bench/generate.ts sqlite|postgres [file|schema]`: generate on its own.
if (import.meta.url === `file://${process.argv[1]}`) {
  const engine = process.argv[2] ?? 'sqlite';
  const scale = Number(process.env.SCALE ?? 1);
  const target: Target =
    engine === 'postgres'
      ? {
          engine,
          url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
          schema: process.argv[3] ?? `bench_gen`,
        }
      : { engine: 'sqlite', file: path.resolve(process.argv[3] ?? '.tmp/bench/gen/sebar.sqlite') };
  const result = await generate(target, scale, (s) => console.log(s));
  console.log(JSON.stringify(result));
}
