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

/**
 * How long a connection may sit in an open transaction with no statement running before
 * PostgreSQL ends it. Sebar's transactions never wait on anything but their own statements (calls
 * to Meta or WAHA are made outside them); a process frozen mid-transaction (a stopped container, a
 * suspended machine) would otherwise hold its locks, and stall every other worker, until it woke.
 */
const IDLE_IN_TRANSACTION_MS = 30_000;

export function openPostgres(url: string, schema: string | null, max = 10): DbHandle {
  const driver = require('pg') as typeof pg;
  const pool = new driver.Pool({
    connectionString: url,
    max,
    types: typeParsers(driver),
    // Connections are kept rather than closed after idle seconds: a server's pool stays warm.
    idleTimeoutMillis: 0,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A client that loses its server must not crash the process: an idle one is reported on the
  // pool; one in use (its transaction ended by the server) fails its next statement instead.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', file: null, close: () => db.destroy() };
}
