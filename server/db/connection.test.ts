// Rows come back as objects keyed by column name on both engines, whatever the name: SQLite's
// rows are built from arrays by code made for each statement's columns, so odd names are tested.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test-helpers.ts';
import type { DbHandle } from './connection.ts';

let database: DbHandle;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.handle;
  drop = fresh.drop;
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

describe('rows', () => {
  it('are objects with each column under its own name, the last of a repeated name winning', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select 1 as "a""b", 'x' as "}; throw 1; //", null as "__proto__x", 2 as "a", 3 as "a"`.execute(
      database.db,
    );
    expect(rows).toEqual([{ 'a"b': 1, '}; throw 1; //': 'x', __proto__x: null, a: 3 }]);
  });

  it('keep their shape across parameters, row counts and empty results', async () => {
    const query = (n: number) =>
      sql<{ n: number; label: string }>`
        with recursive t(n) as (select 1 union all select n + 1 from t where n < ${n})
        select n, 'baris ' || n as label from t where n <= ${n} order by n`.execute(database.db);
    expect((await query(3)).rows).toEqual([
      { n: 1, label: 'baris 1' },
      { n: 2, label: 'baris 2' },
      { n: 3, label: 'baris 3' },
    ]);
    expect((await query(0)).rows).toEqual([{ n: 1, label: 'baris 1' }].filter(() => false));
  });
});
