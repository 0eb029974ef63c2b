// Opens the one database: the embedded SQLite file by default, PostgreSQL when configured.
import type { Config } from '#server/config.ts';
import type { DbHandle } from './connection.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite, sqliteFile } from './sqlite.ts';

export function openDatabase(config: Config): DbHandle {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databaseSchema)
    : openSqlite(sqliteFile(config));
}
