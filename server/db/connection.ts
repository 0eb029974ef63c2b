// Opens the one database: the embedded SQLite file by default, PostgreSQL when configured.
// The few differences between the engines live here and nowhere else.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  CompiledQuery,
  sql,
  type RawBuilder,
  Kysely,
  PostgresDialect,
  type PostgresPool,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Insertable,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';
import { loadSqlite } from './sqlite-driver.ts';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  engine: Engine;
  /** Where the SQLite file is (null on PostgreSQL). */
  file: string | null;
  /**
   * The rows of a read that nearly every request makes (the token check's), as Kysely answers
   * them. On PostgreSQL it goes to the pool without Kysely: Kysely's connection handling and our
   * wrapper's promises around the query cost 2-3 µs of each `/api/auth/me` answer (of 34-39).
   */
  read<R>(query: string, parameters: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** `read` through Kysely (SQLite: its one connection is handed out by the driver, in turn). */
export function kyselyRead(db: Db): DbHandle['read'] {
  return async <R>(query: string, parameters: readonly unknown[]) =>
    (await db.executeQuery<R>(CompiledQuery.raw(query, [...parameters]))).rows;
}

// Each engine's driver is loaded only when it is used: a process needs one of them.
const require = createRequire(import.meta.url);
let postgresDriver: typeof pg | undefined;
const NODE_NAVIGATOR = {
  value: { userAgent: `Node.js/${process.versions.node}` },
  configurable: true,
};
function loadPostgres(): typeof pg {
  if (!postgresDriver) {
    // pg asks, as it loads, whether it runs in a Cloudflare Worker: without a global navigator (Node
    // 20 has none) it makes a Response, and Node then loads its whole fetch implementation, 40-60
    // ms of every PostgreSQL cold start. A navigator for the length of the require answers first.
    const borrowed = !('navigator' in globalThis);
    if (borrowed) Object.defineProperty(globalThis, 'navigator', NODE_NAVIGATOR);
    try {
      postgresDriver = require('pg') as typeof pg;
    } finally {
      if (borrowed) Reflect.deleteProperty(globalThis, 'navigator');
    }
    // Counts, sums and balances (bigint) come back as numbers, not strings: a balance is at most
    // MAX_BALANCE (common/points.ts), exact in a number.
    postgresDriver.types.setTypeParser(postgresDriver.types.builtins.INT8, (v) => Number(v));
    postgresDriver.types.setTypeParser(postgresDriver.types.builtins.NUMERIC, (v) => Number(v));
  }
  return postgresDriver;
}

/**
 * Writers take the lock when they begin, so two processes on one file never deadlock upgrading.
 * The one connection is handed to its waiters first come, first served: Kysely's own mutex wakes
 * every waiter on each release (they all await one promise and all but one wait again), so with
 * 50 requests in flight each query cost 50 wake-ups, and n at once cost O(n²).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #waiters: (() => void)[] = [];
  #held = false;

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#held = true;
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export function sqliteFile(config: Config): string {
  return path.join(config.dataDir, 'sebar.sqlite');
}

/**
 * The database as Kysely sees it, with each statement prepared once: Kysely prepares on every
 * query, which cost more than running the query itself. Bounded, since a few statements (an
 * `in` list) vary with their input; one connection runs one statement at a time, so sharing
 * a prepared statement is safe.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const statements = new Map<string, KyselyStatement>();
  return {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= max) statements.clear();
        statement = rowsAsObjects(sqlite.prepare(text));
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => sqlite.close(),
  };
}

/** The part of a statement Kysely's SQLite driver uses. */
type KyselyStatement = Pick<SQLite.Statement<unknown[]>, 'reader' | 'all' | 'run' | 'iterate'>;

/**
 * A reader whose rows come from better-sqlite3 as arrays and become objects through one object
 * literal made for its columns: better-sqlite3's own objects are built through V8's slow path
 * (a name lookup and a generic store per column per row), which cost more than the query itself.
 * The names are SQLite's column names of our own statements, each quoted by JSON.stringify.
 */
function rowsAsObjects(statement: SQLite.Statement<unknown[]>): KyselyStatement {
  if (!statement.reader) return statement;
  const toRow = rowMaker(statement.columns().map((column) => column.name));
  statement.raw(true);
  return {
    reader: true,
    run: (...parameters) => statement.run(...parameters),
    all: (...parameters) => (statement.all(...parameters) as unknown[][]).map(toRow),
    *iterate(...parameters) {
      for (const values of statement.iterate(...parameters)) yield toRow(values as unknown[]);
    },
  };
}

/** Makes a row object from an array of values: one object literal written for these columns. */
function rowMaker(names: string[]): (values: unknown[]) => object {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as (v: unknown[]) => object;
}

/**
 * Switches the file to WAL. Two processes opening a new file together both try to, and SQLite
 * answers one of them SQLITE_BUSY at once, without waiting (it holds a lock the other needs):
 * 61 of 200 such opens failed before this retry, none after.
 */
function useWal(sqlite: SQLite.Database): void {
  for (let tries = 1; ; tries += 1) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (tries >= 200 || (error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

export function openSqlite(file: string): DbHandle {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new (loadSqlite())(file);
  useWal(sqlite);
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  // A group commit runs each transaction in a savepoint, whose undo journal SQLite spills to a
  // temporary file past 64 KiB: blasts of 500 numbers made 170 writes each, 122 with the
  // journal in memory (strace, 50 connections), and no temporary files opened and closed.
  sqlite.pragma('temp_store = MEMORY');
  // 8 MB of pages (better-sqlite3 builds SQLite with 16 MB, SQLite's own default is 2 MB): the
  // indexes' upper levels stay cached, and the operating system caches the file under it. Under
  // blast creation the cache filled, and the server's memory passed 150 MB.
  sqlite.pragma('cache_size = -8000');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { db, engine: 'sqlite', file, read: kyselyRead(db), close: () => db.destroy() };
}

/**
 * Each query as a named prepared statement: PostgreSQL parses and plans a statement once per
 * connection instead of on every call (Kysely sends them unnamed). Our statements are a small,
 * fixed set, so the names stay few.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool & Pick<DbHandle, 'read'> {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      if (names.size >= 1000) names.clear();
      name = `s${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      names.set(text, name);
    }
    return name;
  };
  // Rows come as arrays and become objects as on SQLite (rowsAsObjects): pg's own objects get
  // their columns one by one, by name. A statement's text fixes its columns, so its name (made
  // from the text) keys the maker.
  const makers = new Map<string, (values: unknown[]) => object>();
  const asObjects = (name: string, result: pg.QueryResult<unknown[]>) => {
    let make = makers.get(name);
    if (!make) {
      if (makers.size >= 1000) makers.clear();
      make = rowMaker(result.fields.map((field) => field.name));
      makers.set(name, make);
    }
    return Object.assign(result, { rows: result.rows.map(make) });
  };
  const prepared = new WeakSet<pg.PoolClient>();
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  return {
    end: () => pool.end(),
    async connect() {
      const client = await connect();
      if (!prepared.has(client)) {
        prepared.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
          if (typeof text !== 'string' || !Array.isArray(values))
            return query(text, values, ...rest);
          const name = nameOf(text);
          return (
            query({ name, text, values, rowMode: 'array' }) as Promise<pg.QueryResult<unknown[]>>
          ).then((result) => asObjects(name, result));
        }) as typeof client.query;
      }
      return client;
    },
    // The pool's own query: its client goes back to the pool as the answer comes, with no
    // promise of ours around the checkout.
    async read<R>(text: string, parameters: readonly unknown[]) {
      const name = nameOf(text);
      const values = parameters as unknown[];
      return asObjects(name, await pool.query({ name, text, values, rowMode: 'array' }))
        .rows as R[];
    },
  };
}

export function openPostgres(url: string, schema: string | null, max = 10): DbHandle {
  const pool = new (loadPostgres().Pool)({
    connectionString: url,
    max,
    // Connections are kept, not closed after 10 idle seconds: pg-pool's idle timer is set on every
    // release and cleared on every checkout: a fifth of a short pooled read's client CPU.
    idleTimeoutMillis: 0,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const named = withNamedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named }) });
  return { db, engine: 'postgres', file: null, read: named.read, close: () => db.destroy() };
}

export function openDatabase(config: Config): DbHandle {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databaseSchema)
    : openSqlite(sqliteFile(config));
}

/** Row lock for read-then-write on PostgreSQL; SQLite writers already hold the file lock. */
export function forUpdate<DB, TB extends keyof DB, O>(
  engine: Engine,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return engine === 'postgres' ? query.forUpdate() : query;
}

/**
 * A JSON array of strings as rows (idx from 0, value): many rows in one parameter, which both
 * engines insert several times faster than a VALUES list of hundreds of parameters.
 */
export function jsonArrayRows(
  engine: Engine,
  json: string,
): RawBuilder<{ idx: number; value: string }> {
  return engine === 'postgres'
    ? sql`select ord - 1 as idx, value from json_array_elements_text(${json}::json) with ordinality as t(value, ord)`
    : sql`select key as idx, value from json_each(${json})`;
}

/**
 * `insert into table (...) values (...), ...` of rows with the same columns, as SQL: on the
 * hottest paths (a blast, a ledger entry, the counters) Kysely's builder cost more than the
 * database's own work on the insert. The columns are the first row's keys, quoted as identifiers;
 * as Kysely's values(), one whose value is undefined is left out.
 */
export function insertRows<T extends keyof Database & string>(
  table: T,
  rows: readonly Insertable<Database[T]>[],
): RawBuilder<unknown> {
  type Row = (typeof rows)[number];
  const first = rows[0]!;
  const columns = (Object.keys(first) as (keyof Row & string)[]).filter(
    (column) => first[column] !== undefined,
  );
  const values = rows.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`);
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    values ${sql.join(values)}`;
}

/** A statement that writes and whose answer is not read. */
export type Write = RawBuilder<unknown>;

/**
 * Runs `writes` in the order given, in the caller's transaction. On PostgreSQL they go as one
 * statement (the first as the main statement, the others as data-modifying WITH queries), one
 * round trip instead of one each: a blast's creation sends seven of them after its debit. No two
 * of them may change the same row. PostgreSQL runs the main statement first and then the WITH
 * queries that nothing reads, the last listed first, so they are listed in reverse: the order
 * given is the order their rows are locked in (a test checks it). On SQLite, where a statement
 * costs no round trip, they run one after another.
 */
export async function writeAll(engine: Engine, trx: Transaction<Database>, writes: Write[]) {
  if (engine === 'sqlite' || writes.length < 2) {
    for (const write of writes) await write.execute(trx);
    return;
  }
  const [main, ...rest] = writes;
  const queries = rest.reverse().map((write, i) => sql`${sql.raw(`w${i}`)} as (${write})`);
  await sql`with ${sql.join(queries)} ${main}`.execute(trx);
}

/**
 * `column` is one of the strings of a JSON array, looked up through the column's index on both
 * engines (PostgreSQL plans `in (select ...)` over a set-returning function as a scan).
 */
export function inJsonArray(engine: Engine, column: string, json: string): RawBuilder<boolean> {
  return engine === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(array(select json_array_elements_text(${json}::json)))`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${json}))`;
}

/** `value`'s texts of each group joined by commas in `orderBy` order, as one text. */
export function orderedList(
  engine: Engine,
  value: RawBuilder<string>,
  orderBy: string,
): RawBuilder<string> {
  const fn = engine === 'postgres' ? sql.raw('string_agg') : sql.raw('group_concat');
  return sql<string>`${fn}(${value}, ',' order by ${sql.ref(orderBy)})`;
}

/** Deadlock, serialization failure or a busy SQLite file: the whole transaction may be retried. */
const RETRYABLE = new Set(['40P01', '40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);

async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (tries >= 5 || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * tries));
    }
  }
}

type Work<T> = (trx: Transaction<Database>) => Promise<T>;
interface Queued {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const SAVEPOINT = sql`savepoint work`;
const RELEASE = sql`release work`;
const ROLLBACK_TO = sql`rollback to work`;

/** At most this many transactions share one commit, so no answer waits long for the group. */
const MAX_GROUP = 64;

/**
 * SQLite's commit is an fsync that blocks the whole process (about 1 ms here), so transactions
 * that arrive while one runs are committed together: one write lock, one fsync. Each runs in
 * its own savepoint, so one that fails is undone alone, as if it had been its own transaction;
 * none is answered before the shared commit is on disk, and if that commit fails, all fail.
 */
class GroupCommit {
  readonly #queue: Queued[] = [];
  #draining = false;
  constructor(private readonly db: Db) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve, reject } as Queued);
      if (this.#draining) return;
      this.#draining = true;
      // After the requests read in this turn of the event loop have queued their work too.
      setImmediate(() => void this.#drain());
    });
  }

  async #drain() {
    try {
      while (this.#queue.length > 0) await this.#commit(this.#queue.splice(0, MAX_GROUP));
    } finally {
      this.#draining = false;
    }
  }

  async #commit(group: Queued[]) {
    const answers: (() => void)[] = [];
    let trx;
    try {
      trx = await withRetry(() => this.db.startTransaction().execute());
      for (const { work, resolve, reject } of group) {
        await SAVEPOINT.execute(trx);
        try {
          const value = await work(trx);
          await RELEASE.execute(trx);
          answers.push(() => resolve(value));
        } catch (error) {
          await ROLLBACK_TO.execute(trx);
          await RELEASE.execute(trx);
          answers.push(() => reject(error));
        }
      }
      await trx.commit().execute();
    } catch (error) {
      await trx
        ?.rollback()
        .execute()
        .catch(() => undefined);
      for (const { reject } of group) reject(error);
      return;
    }
    for (const answer of answers) answer();
  }
}

const groupCommits = new WeakMap<Db, GroupCommit>();

/** Runs `work` in one transaction (on SQLite, in a group commit), retrying it when the engine asks. */
export function transact<T>(database: DbHandle, work: Work<T>): Promise<T> {
  if (database.engine === 'sqlite') {
    let group = groupCommits.get(database.db);
    if (!group) groupCommits.set(database.db, (group = new GroupCommit(database.db)));
    return group.run(work);
  }
  return withRetry(() => database.db.transaction().execute(work));
}

export const bool = (value: number | boolean) => (value ? 1 : 0);
export const now = () => new Date().toISOString();
