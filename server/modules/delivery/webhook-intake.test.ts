// The intake's group commit: deliveries that arrive together are kept by one insert, each one
// answered once it is kept, a repeat kept once. With nothing to do, the workers' look at the kept
// events and at unanswered sends takes no write lock.
import {
  InsertQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate } from '#server/db/migrate.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { openSqlite } from '#server/db/sqlite.ts';
import { transact } from '#server/db/transaction.ts';
import { freshDatabase, TEST_DATABASE_URL } from '#server/test/helpers.ts';
import { applyEvents } from './cloud-api-events.ts';
import { ENGINE_DEFAULTS } from './engine-options.ts';
import { applyGatewayEvents } from './gateway-events.ts';
import { requeueUnanswered } from './outbox.ts';
import { secretBox } from './secret-box.ts';
import { applyKept, markApplied, WebhookIntake } from './webhook-intake.ts';

/** Counts the inserts the database is asked to run. */
class InsertCounter implements KyselyPlugin {
  inserts = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (InsertQueryNode.is(node)) this.inserts += 1;
    return node;
  }
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
  await migrate(database.handle);
});
afterAll(async () => {
  await database.handle.close();
  await database.drop();
});

it('keeps deliveries that arrive in one turn of the event loop with one insert', async () => {
  const counter = new InsertCounter();
  const { handle } = database;
  const intake = new WebhookIntake({ ...handle, db: handle.db.withPlugin(counter) }, 'whatsapp');
  const bodies = Array.from({ length: 20 }, (_, i) => Buffer.from(`{"delivery":${i}}`));
  // The last is a repeat of the first, as Meta retries: kept once.
  await Promise.all([...bodies, bodies[0]!].map((body) => intake.keep(body)));
  expect(counter.inserts).toBe(1);
  const kept = await handle.db.selectFrom('webhook_events').select(['body', 'source']).execute();
  expect(kept.map((row) => row.body).sort()).toEqual(bodies.map(String).sort());
  expect(new Set(kept.map((row) => row.source))).toEqual(new Set(['whatsapp']));

  // A lone delivery later is written on its own, at once.
  await intake.keep(Buffer.from('{"delivery":"later"}'));
  expect(counter.inserts).toBe(2);
});

it('an idle worker looks at its queues without waiting for another writer', async () => {
  const { handle, config } = database;
  await handle.db.deleteFrom('webhook_events').execute();
  // Another connection holds the write lock (SQLite) or locks the event table against takers
  // (PostgreSQL), as a long request's transaction would.
  const other = handle.file
    ? openSqlite(handle.file)
    : openPostgres(TEST_DATABASE_URL, config.databaseSchema!);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked = () => {};
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const holder = transact(other, async (tx) => {
    if (tx.engine === 'postgres') {
      await sql`lock table webhook_events in exclusive mode`.execute(tx.db);
    }
    locked();
    await released;
  });
  try {
    await holding;
    const blocked = new Promise<string>((resolve) => setTimeout(() => resolve('blocked'), 1000));
    expect(await Promise.race([applyEvents(handle, ENGINE_DEFAULTS), blocked])).toEqual({
      taken: 0,
      halt: null,
      accountErrors: [],
      setAside: [],
    });
    expect(
      await Promise.race([applyGatewayEvents(handle, secretBox(Buffer.alloc(32))), blocked]),
    ).toEqual({ taken: 0, setAside: [] });
    const waits = { cloudApiMs: 15_000, gatewayMs: 60_000, maxAttempts: 8 };
    expect(await Promise.race([requeueUnanswered(handle, waits), blocked])).toBe(0);
  } finally {
    release();
    await holder;
    await other.close();
  }
});

it('applies a failed batch again in halves: only the event that fails alone waits', async () => {
  const { handle } = database;
  await handle.db.deleteFrom('webhook_events').execute();
  const intake = new WebhookIntake(handle, 'waha');
  const body = (n: number) => `{"n":${n}}`;
  await Promise.all([0, 1, 2, 3, 4, 5, 6].map((n) => intake.keep(Buffer.from(body(n)))));
  const applied: string[] = [];
  const { results, setAside } = await applyKept(handle, 'waha', 200, async (tx, events) => {
    if (events.some((e) => e.body === body(4))) throw new Error('cannot apply');
    await markApplied(tx, events);
    applied.push(...events.map((e) => e.body));
    return events.length;
  });
  expect(applied.sort()).toEqual([0, 1, 2, 3, 5, 6].map(body));
  expect(results.reduce((sum, n) => sum + n, 0)).toBe(6);
  expect(setAside).toEqual([{ id: expect.any(String), error: new Error('cannot apply') }]);
  const left = await handle.db
    .selectFrom('webhook_events')
    .select(['id', 'body', 'due_at'])
    .where('processed_at', 'is', null)
    .execute();
  expect(left.map((e) => [e.id, e.body])).toEqual([[setAside[0]!.id, body(4)]]);
  expect(Date.parse(String(left[0]!.due_at))).toBeGreaterThan(Date.now());
  // It is not due again yet: nothing is taken.
  const again = await applyKept(handle, 'waha', 200, () => Promise.reject(new Error('taken')));
  expect(again).toEqual({ results: [], setAside: [] });
});
