// The database's limit for blast creation: the raw driver running the same statements as
// POST /api/client/blast-requests (the delivery mode read, then in one transaction: the balance
// read holding the client, the opt-out lookup of the numbers, the idempotency claim with the
// stored answer, the conditional debit, the ledger entry and its summary count, the blast row and
// its summary count, the per-number rows as one multi-row insert), with prepared statements and
// no HTTP, validation or query builder.
// Input: BENCH_RAW (JSON of RawInput). Prints {rate} (blasts per second).
import crypto from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { loadSqlite } from '#server/db/sqlite-driver.ts';
import pg from 'pg';

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
let next = 0;
const nextUser = () => input.userIds[next++ % input.userIds.length]!;

/** The statements in order, `?` placeholders (renumbered to $n for PostgreSQL). */
const SQL = {
  mode: 'select mode from delivery_settings where id = 1',
  claim: `insert into idempotency_keys (user_id, key, request_hash, status_code, response_body, created_at) values (?, ?, ?, 201, ?, ?) on conflict (user_id, key) do nothing`,
  owner: 'select points, username from users where id = ?',
  // PostgreSQL: the server holds the client's row against deletion (ledger.ts holdClient).
  ownerPostgres: 'select points, username from users where id = ? for key share',
  optOuts: 'select number from opt_outs where number in (select value from json_each(?))',
  optOutsPostgres:
    'select number from opt_outs where number = any(array(select json_array_elements_text(?::json)))',
  debit:
    'update users set points = points + ?, ledger_seq = ledger_seq + 1, updated_at = ? where id = ? and points + ? >= 0 returning points, ledger_seq',
  ledger: `insert into point_transactions (id, user_id, seq, type, delta, balance_after, description, point_request_id, blast_id, created_at) values (?, ?, ?, 'usage', ?, ?, ?, null, ?, ?)`,
  count: `insert into summary_counts (user_id, counter, kind, n, total) values (?, ?, ?, 1, ?) on conflict (user_id, counter, kind) do update set n = summary_counts.n + excluded.n, total = summary_counts.total + excluded.total`,
  blast: `insert into blasts (id, user_id, message, image_url, total_numbers, status, successful_count, failed_count, no_wa_count, refund_points, points_used, admin_notes, created_at, processed_at, delivery_mode, template, media_id, media_uploaded_at, opted_out_count) values (?, ?, ?, null, ?, 'pending', 0, 0, 0, 0, ?, null, ?, null, 'manual', null, null, null, 0)`,
  numbers: `insert into blast_numbers (blast_id, idx, number, status) values ${input.numbers.map(() => "(?, ?, ?, 'pending')").join(', ')}`,
};

/** Parameters of each statement for one blast. */
function params(userId: string) {
  const key = crypto.randomUUID();
  const id = crypto.randomUUID();
  const at = new Date().toISOString();
  return {
    claim: [userId, key, 'hash', input.body, at],
    owner: [userId],
    optOuts: [JSON.stringify(input.numbers)],
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
    countLedger: [userId, 'ledger', 'usage', -count],
    blast: [id, userId, input.message, count, count, at],
    countBlast: [userId, 'blasts', 'pending', 0],
    numbers: input.numbers.flatMap((number, idx) => [id, idx, number]),
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
    s.mode.get();
    begin.run();
    s.owner.get(...p.owner);
    s.optOuts.all(...p.optOuts);
    s.claim.run(...p.claim);
    const row = s.debit.get(...p.debit) as { points: number; ledger_seq: number };
    s.ledger.run(...p.ledger(row));
    s.count.run(...p.countLedger);
    s.blast.run(...p.blast);
    s.count.run(...p.countBlast);
    s.numbers.run(...p.numbers);
    commit.run();
    done += 1;
  }
  db.close();
  return done / ((performance.now() - started) / 1000);
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
  let done = 0;
  const until = performance.now() + input.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < until) {
      const p = params(nextUser());
      await pool.query(q('mode', []));
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(q('ownerPostgres', p.owner));
        await client.query(q('optOutsPostgres', p.optOuts));
        await client.query(q('claim', p.claim));
        const { rows } = await client.query(q('debit', p.debit));
        await client.query(
          q('ledger', p.ledger(rows[0] as { points: number; ledger_seq: number })),
        );
        await client.query(q('count', p.countLedger));
        await client.query(q('blast', p.blast));
        await client.query(q('count', p.countBlast));
        await client.query(q('numbers', p.numbers));
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
