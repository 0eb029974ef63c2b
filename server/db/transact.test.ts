// transact(): every transaction is all-or-nothing on its own, also when SQLite commits several
// of them together (group commit): one that fails is undone alone and the others stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { HttpError } from '../plugins/errors.ts';
import { engine, freshDatabase } from '../test-helpers.ts';
import { transact, type DbHandle, writeAll } from './connection.ts';
import { migrate } from './migrate.ts';

let database: DbHandle;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.handle;
  drop = fresh.drop;
  await migrate(database);
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const secret = (name: string) => ({ name, value: `nilai-${name}` });
const names = async () =>
  (await database.db.selectFrom('app_secrets').select('name').orderBy('name').execute()).map(
    (row) => row.name,
  );

describe('transact', () => {
  it('undoes only the transaction that fails among those running at the same time', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c', 'd', 'e'].map((name) =>
        transact(database, async (trx) => {
          await trx
            .insertInto('app_secrets')
            .values(secret(`${name}-1`))
            .execute();
          await trx
            .insertInto('app_secrets')
            .values(secret(`${name}-2`))
            .execute();
          if (name === 'b') throw new HttpError(409, 'gagal di tengah');
          // A constraint violation fails this one alone (the same name twice).
          if (name === 'd') await trx.insertInto('app_secrets').values(secret('d-1')).execute();
          return name;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : null))).toEqual([
      'a',
      null,
      'c',
      null,
      'e',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(HttpError);
    expect(await names()).toEqual(['a-1', 'a-2', 'c-1', 'c-2', 'e-1', 'e-2']);
  });
});

describe('the connection queue', () => {
  // Kysely's SQLite mutex woke every waiter on each release, so n queries at once took O(n²)
  // wake-ups: 20,000 took over a minute. Served first come, first served they take about a second.
  it('serves 20,000 reads and a write issued at once', async () => {
    const count = () =>
      database.db
        .selectFrom('app_secrets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', 'antrian')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    const write = transact(database, (trx) =>
      trx.insertInto('app_secrets').values(secret('antrian')).execute(),
    );
    const seen = await Promise.all(Array.from({ length: 20_000 }, count));
    await write;
    expect(seen.every((n) => n === 0 || n === 1)).toBe(true);
    expect(await count()).toBe(1);
  }, 20_000);
});

describe('writeAll', () => {
  // On PostgreSQL the writes go as one statement, whose WITH queries PostgreSQL runs after the
  // main statement, the last listed first: the order given is the order rows are locked in, and
  // a blast's creation keeps the account-then-counters order every writer follows.
  it('runs the writes in the order given, all or none', async () => {
    const written = async () =>
      (
        await sql<{ name: string }>`select name from written order by seq`.execute(database.db)
      ).rows.map((row) => row.name);
    const insert = (name: string) => sql`insert into written (name) values (${name})`;
    const seq = engine === 'postgres' ? sql`serial` : sql`integer`;
    await sql`create table written (seq ${seq} primary key, name text not null unique)`.execute(
      database.db,
    );
    try {
      await transact(database, (trx) =>
        writeAll(engine, trx, ['a', 'b', 'c', 'd', 'e'].map(insert)),
      );
      expect(await written()).toEqual(['a', 'b', 'c', 'd', 'e']);
      // One write that fails (a name already there) undoes the others.
      await expect(
        transact(database, (trx) => writeAll(engine, trx, ['f', 'a', 'g'].map(insert))),
      ).rejects.toThrow();
      expect(await written()).toEqual(['a', 'b', 'c', 'd', 'e']);
    } finally {
      await sql`drop table written`.execute(database.db);
    }
  });
});
