// transact(): every transaction is all-or-nothing on its own, also among several started at
// once: one that fails is undone alone and the others stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '#server/plugins/errors.ts';
import { freshDatabase } from '#server/test/helpers.ts';
import type { DbHandle } from './connection.ts';
import { migrate } from './migrate.ts';
import { transact } from './transaction.ts';

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
        transact(database, async ({ db: trx }) => {
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

describe('the connection', () => {
  it('serves 2,000 reads and a write issued at once', async () => {
    const count = () =>
      database.db
        .selectFrom('app_secrets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', 'antrian')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    const write = transact(database, ({ db: trx }) =>
      trx.insertInto('app_secrets').values(secret('antrian')).execute(),
    );
    const seen = await Promise.all(Array.from({ length: 2_000 }, count));
    await write;
    expect(seen.every((n) => n === 0 || n === 1)).toBe(true);
    expect(await count()).toBe(1);
  }, 20_000);
});
