// The embedded SQLite file: opening it, its settings, and the one dialect bit it needs.
import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
} from 'kysely';
import type { Config } from '#server/config.ts';
import type { DbHandle } from './connection.ts';
import type { Database } from './schema.ts';
import { loadSqlite } from './sqlite-driver.ts';

/** Writers take the file's lock when they begin, so two writers never deadlock upgrading. */
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
 * Switches the file to WAL. Two processes opening a new file together both try to, and SQLite
 * answers one of them SQLITE_BUSY at once, without waiting: that one tries again.
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
  // SQLite's own page cache size (better-sqlite3 builds it with 16 MB): the indexes' upper levels
  // stay cached and the operating system caches the file under it.
  sqlite.pragma('cache_size = -2000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  return { db, engine: 'sqlite', file, close: () => db.destroy() };
}
