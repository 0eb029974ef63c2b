// The intake's group commit: deliveries that arrive together are kept by one insert, each one
// answered once it is kept, a repeat kept once.
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
import { migrate } from '#server/db/migrate.ts';
import { freshDatabase } from '#server/test/helpers.ts';
import { WebhookIntake } from './webhook-intake.ts';

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
