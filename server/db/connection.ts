// The one database's handle (opened by open.ts), and the SQL fragments whose spelling differs
// between the two engines.
import { sql, type Kysely, type RawBuilder } from 'kysely';
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

/**
 * `column` is one of the strings of a JSON array, looked up through the column's index on both
 * engines (PostgreSQL plans `in (select ...)` over a set-returning function as a scan).
 */
export function inJsonArray(engine: Engine, column: string, json: string): RawBuilder<boolean> {
  return engine === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(array(select json_array_elements_text(${json}::json)))`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${json}))`;
}

/** The text at `key` of the JSON object stored as text in `column` (null when it has none). */
export function jsonText(engine: Engine, column: string, key: string): RawBuilder<string | null> {
  return engine === 'postgres'
    ? sql<string | null>`(${sql.ref(column)}::json ->> ${key})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${key}`})`;
}

/**
 * The texts of `values` as rows (idx, value), idx counting from 0 in list order: a list inserted
 * by one short statement with one parameter, rather than a statement with a placeholder per item.
 */
export function listRows(engine: Engine, values: readonly string[]): RawBuilder<unknown> {
  return engine === 'postgres'
    ? sql`(select (n - 1)::int as idx, value from unnest(${values}::text[]) with ordinality as t(value, n)) as list`
    : sql`(select key as idx, value from json_each(${JSON.stringify(values)})) as list`;
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

export const bool = (value: number | boolean) => (value ? 1 : 0);
export const now = () => new Date().toISOString();
/** The instant `ms` (milliseconds since the epoch) as stored: an ISO 8601 text. */
export const isoAt = (ms: number) => new Date(ms).toISOString();
/** The first instant whose ISO 8601 text has a five-digit year (and so would sort wrongly). */
const YEAR_10000_MS = Date.UTC(10000, 0, 1);
/** A time another service reported (epoch ms) as stored, or `fallback` when it is not one. */
export const reportedAt = (ms: number, fallback: string) =>
  Number.isFinite(ms) && ms > 0 && ms < YEAR_10000_MS ? isoAt(ms) : fallback;
