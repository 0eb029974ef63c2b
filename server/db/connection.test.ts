// Rows come back as objects keyed by column name on both engines, whatever the name; a pooled
// PostgreSQL connection whose server process ended is replaced, in use or idle.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { engine, freshDatabase, TEST_DATABASE_URL } from '#server/test/helpers.ts';
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

describe('PostgreSQL connections', () => {
  // The pool keeps its connections for good (no idle timeout), so one whose server process
  // ended while it sat idle must be replaced, not handed to the next query.
  it.runIf(engine === 'postgres')(
    'replace an idle connection whose server process was ended',
    async () => {
      const backend = () =>
        sql<{ pid: number }>`select pg_backend_pid() as pid`
          .execute(database.db)
          .then(({ rows }) => rows[0]!.pid);
      const before = await backend();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [before]);
      } finally {
        await admin.end();
      }
      await expect.poll(backend).not.toBe(before);
      expect(await backend()).not.toBe(before);
    },
  );

  // A transaction ended by the server (as the idle-in-transaction timeout ends a frozen worker's)
  // fails its next statement; the process lives on and the pool answers the next query.
  it.runIf(engine === 'postgres')(
    'fail a transaction whose server process was ended, and go on',
    async () => {
      const outcome = await database.db
        .transaction()
        .execute(async (tx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx);
          const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
          await admin.connect();
          try {
            await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          } finally {
            await admin.end();
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 1`.execute(tx);
          return 'ran';
        })
        .catch(() => 'failed');
      expect(outcome).toBe('failed');
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    },
  );
});
