// PostgreSQL: opening its pool and its settings.
import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DbHandle } from './connection.ts';
import type { Database } from './schema.ts';

// Loaded only when PostgreSQL is used: a process needs one of the two drivers.
const require = createRequire(import.meta.url);

/**
 * Counts, sums and balances (bigint, numeric) as numbers, not strings: a balance is at most
 * MAX_BALANCE (common/points.ts), exact in a number. Set on this pool only.
 */
function typeParsers(driver: typeof pg): pg.CustomTypesConfig {
  const { builtins } = driver.types;
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === builtins.INT8 || oid === builtins.NUMERIC
        ? (value: string) => Number(value)
        : driver.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

export function openPostgres(url: string, schema: string | null, max = 10): DbHandle {
  const driver = require('pg') as typeof pg;
  const pool = new driver.Pool({
    connectionString: url,
    max,
    types: typeParsers(driver),
    // Connections are kept rather than closed after idle seconds: a server's pool stays warm.
    idleTimeoutMillis: 0,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', file: null, close: () => db.destroy() };
}
