// Opens the one database: the embedded SQLite file by default, PostgreSQL when configured.
// The few differences between the engines live here and nowhere else.
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
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  engine: Engine;
  /** Where the SQLite file is (null on PostgreSQL). */
  file: string | null;
  close(): Promise<void>;
}

// Each engine's driver is loaded only when it is used: a process needs one of them.
const require = createRequire(import.meta.url);
const loadSqlite = () => require('better-sqlite3') as typeof SQLite;
let postgresDriver: typeof pg | undefined;
function loadPostgres(): typeof pg {
  if (!postgresDriver) {
    postgresDriver = require('pg') as typeof pg;
    // Counts and sums come back as numbers, not strings (our values stay far below 2^53).
    postgresDriver.types.setTypeParser(postgresDriver.types.builtins.INT8, (v) => Number(v));
    postgresDriver.types.setTypeParser(postgresDriver.types.builtins.NUMERIC, (v) => Number(v));
  }
  return postgresDriver;
}

/** Writers take the lock when they begin, so two processes on one file never deadlock upgrading. */
class ImmediateSqliteDriver extends SqliteDriver {
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
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= max) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
    close: () => sqlite.close(),
  };
}

export function openSqlite(file: string): DbHandle {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new (loadSqlite())(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  return { db, engine: 'sqlite', file, close: () => db.destroy() };
}

export function openPostgres(url: string, schema: string | null, max = 10): DbHandle {
  const pool = new (loadPostgres().Pool)({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', file: null, close: () => db.destroy() };
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

/** Deadlock, serialization failure or a busy SQLite file: the whole transaction may be retried. */
const RETRYABLE = new Set(['40P01', '40001', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']);

/** Runs `work` in one transaction, retrying it when the engine asks for a retry. */
export async function transact<T>(
  database: DbHandle,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await database.db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || !code || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

export const bool = (value: number | boolean) => (value ? 1 : 0);
export const now = () => new Date().toISOString();
