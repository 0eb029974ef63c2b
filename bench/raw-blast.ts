// The database's limit for blast creation: the raw driver running the same statements as
// POST /api/client/blast-requests (balance read holding the client, idempotency claim with the
// stored answer, conditional debit, ledger entry and its total, blast row and its counts
// (client, stripe, month), the per-number rows from one JSON parameter), with prepared
// statements and no HTTP, validation or query builder. On PostgreSQL the writes after the debit
// go as one statement, as the server's writeAll sends them.
// Input: BENCH_RAW (JSON of RawInput). Prints {rate} (blasts per second).
import crypto from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { loadSqlite } from '../server/db/sqlite-driver.ts';
import pg from 'pg';
import { monthOf, stripeOf } from '../server/db/counters.ts';

export interface RawInput {
  engine: 'sqlite' | 'postgres';
  file?: string;
  url?: string;
  schema?: string;
  userIds: string[];
  /** Normalised, unique numbers. */
  numbers: string[];
  message: string;
  /** The stored idempotent answer, as large as the server's. */
  body: string;
  seconds: number;
  concurrency: number;
}

const input = JSON.parse(process.env.BENCH_RAW ?? '{}') as RawInput;
const count = input.numbers.length;
const numbersJson = JSON.stringify(input.numbers);
let next = 0;
const nextUser = () => input.userIds[next++ % input.userIds.length]!;

/** The statements in order, `?` placeholders (renumbered to $n for PostgreSQL). */
const SQL = {
  claim: `insert into idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at) values (?, ?, ?, 201, ?, ?) on conflict (user_id, key) do nothing`,
  owner: 'select points, username from users where id = ?',
  // PostgreSQL: the server holds the client's row against deletion (ledger.ts holdClient).
  ownerPostgres: 'select points, username from users where id = ? for key share',
  debit:
    'update users set points = points + ?, ledger_seq = ledger_seq + 1, updated_at = ? where id = ? and points + ? >= 0 returning points, ledger_seq',
  ledger: `insert into point_transactions (id, user_id, seq, type, delta, balance_after, description, point_request_id, blast_id, created_at) values (?, ?, ?, 'usage', ?, ?, ?, null, ?, ?)`,
  ledgerTotal: `insert into ledger_totals (user_id, type, n, total) values (?, 'usage', 1, ?) on conflict (user_id, type) do update set n = ledger_totals.n + excluded.n, total = ledger_totals.total + excluded.total`,
  blast: `insert into blasts (id, user_id, message, image_url, total_numbers, status, successful_count, failed_count, no_wa_count, refund_points, points_used, admin_notes, created_at, processed_at) values (?, ?, ?, null, ?, 'pending', 0, 0, 0, 0, ?, null, ?, null)`,
  blastCount: `insert into blast_counts (user_id, status, n) values (?, 'pending', 1) on conflict (user_id, status) do update set n = blast_counts.n + excluded.n`,
  blastTotal: `insert into blast_totals (stripe, status, n) values (?, 'pending', 1) on conflict (stripe, status) do update set n = blast_totals.n + excluded.n`,
  blastMonth: `insert into month_counts (list, month, status, stripe, n) values ('blasts', ?, 'pending', ?, 1) on conflict (list, month, status, stripe) do update set n = month_counts.n + excluded.n`,
  numbersSqlite: `insert into blast_numbers (blast_id, idx, number, status) select ?, key, value, 'pending' from json_each(?)`,
  numbersPostgres: `insert into blast_numbers (blast_id, idx, number, status) select ?, ord - 1, value, 'pending' from json_array_elements_text(?::json) with ordinality as t(value, ord)`,
};

/** Parameters of each statement for one blast. */
function params(userId: string) {
  const key = crypto.randomUUID();
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  return {
    claim: [userId, key, 'hash', input.body, at],
    owner: [userId],
    debit: [-count, at, userId, -count],
    ledger: (row: { points: number; ledger_seq: number }) => [
      crypto.randomUUID(),
      userId,
      row.ledger_seq,
      -count,
      row.points,
      `Blast WhatsApp ke ${count} nomor`,
      id,
      at,
    ],
    ledgerTotal: [userId, -count],
    blast: [id, userId, input.message, count, count, at],
    blastCount: [userId],
    blastTotal: [stripeOf(userId)],
    blastMonth: [monthOf(at), stripeOf(userId)],
    numbers: [id, numbersJson],
  };
}

function runSqlite(): number {
  const db = new (loadSqlite())(input.file!);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  const s = Object.fromEntries(
    Object.entries(SQL)
      .filter(([name]) => !name.endsWith('Postgres'))
      .map(([name, text]) => [name, db.prepare(text)]),
  ) as Record<keyof typeof SQL, SQLite.Statement>;
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  let done = 0;
  const until = performance.now() + input.seconds * 1000;
  const started = performance.now();
  while (performance.now() < until) {
    const p = params(nextUser());
    begin.run();
    s.owner.get(...p.owner);
    s.claim.run(...p.claim);
    const row = s.debit.get(...p.debit) as { points: number; ledger_seq: number };
    s.ledger.run(...p.ledger(row));
    s.ledgerTotal.run(...p.ledgerTotal);
    s.blast.run(...p.blast);
    s.blastCount.run(...p.blastCount);
    s.blastTotal.run(...p.blastTotal);
    s.blastMonth.run(...p.blastMonth);
    s.numbersSqlite.run(...p.numbers);
    commit.run();
    done += 1;
  }
  db.close();
  return done / ((performance.now() - started) / 1000);
}

/** The writes after the debit, in the server's order: the ledger's, the blast's, its numbers'. */
const WRITES = [
  'ledger',
  'ledgerTotal',
  'blast',
  'blastCount',
  'blastTotal',
  'blastMonth',
  'numbersPostgres',
] as const;

/**
 * As writeAll (server/db/connection.ts) makes them: the first write is the main statement, the
 * others are WITH queries listed last to first, which PostgreSQL runs in that reverse order.
 */
function writeAllSql() {
  const [main, ...rest] = WRITES;
  const queries = rest.reverse().map((name, i) => `w${i} as (${SQL[name]})`);
  return { text: `with ${queries.join(', ')} ${SQL[main]}`, order: [...rest, main] };
}

const dollars = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

async function runPostgres(): Promise<number> {
  // The server's pool size, and named statements: the raw driver's fastest path.
  const pool = new pg.Pool({
    connectionString: input.url,
    max: 10,
    options: `-c search_path=${input.schema}`,
  });
  const q = (name: keyof typeof SQL, values: unknown[]) => ({
    name,
    text: dollars(SQL[name]),
    values,
  });
  const writes = writeAllSql();
  const writesText = dollars(writes.text);
  let done = 0;
  const until = performance.now() + input.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < until) {
      const p = params(nextUser());
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(q('ownerPostgres', p.owner));
        await client.query(q('claim', p.claim));
        const { rows } = await client.query(q('debit', p.debit));
        const values: Record<(typeof WRITES)[number], unknown[]> = {
          ledger: p.ledger(rows[0] as { points: number; ledger_seq: number }),
          ledgerTotal: p.ledgerTotal,
          blast: p.blast,
          blastCount: p.blastCount,
          blastTotal: p.blastTotal,
          blastMonth: p.blastMonth,
          numbersPostgres: p.numbers,
        };
        await client.query({
          name: 'writes',
          text: writesText,
          values: writes.order.flatMap((name) => values[name]),
        });
        await client.query('commit');
        done += 1;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    }
  };
  await Promise.all(Array.from({ length: input.concurrency }, worker));
  const rate = done / ((performance.now() - started) / 1000);
  await pool.end();
  return rate;
}

const rate = input.engine === 'sqlite' ? runSqlite() : await runPostgres();
process.stdout.write(`${JSON.stringify({ rate })}\n`);
