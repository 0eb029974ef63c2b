// A kept webhook event that cannot be applied (here a database trigger refuses its update, standing
// for any fault of Sebar's that every try meets) is set aside: the events behind it, of every
// client, go on being applied, and it is applied once the fault is gone. Before, the whole batch
// rolled back at every try and every client's statuses stopped for good.
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedger } from '#server/db/ledger-check.ts';
import {
  numberEnding,
  startDeliveryFixture,
  TEXT_TEMPLATE,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';
import { readUntil } from '#server/test/processes.ts';

const REFUSED = numberEnding(7501, '2000');
const OTHER = numberEnding(7502, '2000');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture();
});
afterAll(() => f?.close());

/** Makes the database refuse to move REFUSED's number past sent. */
async function refuseDelivered() {
  const { db, engine } = f.server.database;
  const when = `new.number = '${REFUSED}' and new.state in ('delivered', 'read')`;
  if (engine === 'sqlite') {
    await sql
      .raw(
        `create trigger refuse_delivered before update on blast_numbers when ${when}
         begin select raise(abort, 'refused for the test'); end`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `create function refuse_delivered() returns trigger language plpgsql as
         $$ begin raise exception 'refused for the test'; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger refuse_delivered before update on blast_numbers for each row
         when (${when}) execute function refuse_delivered()`,
      )
      .execute(db);
  }
}

const kept = () =>
  f.server.database.db
    .selectFrom('webhook_events')
    .select(['id', 'due_at'])
    .where('processed_at', 'is', null)
    .execute();

it('sets aside an event it cannot apply, applies the others, and applies it later', async () => {
  await refuseDelivered();
  const first = await f.blast([REFUSED]);
  // It is sent; its delivered and read statuses are kept but cannot be applied.
  await f.until(first.id, (b) => b.numbers[0].delivery.state === 'sent');
  await readUntil(kept, (rows) => rows.length > 0, 10_000, 'a kept event left unapplied');
  expect((await f.read(first.id)).numbers[0].delivery.state).toBe('sent');

  // Another client's blast, sent after: its statuses are applied all the same.
  const other = await f.server.createClient();
  await f.server.api('PUT', `/api/admin/users/${other.user.id}`, {
    token: f.server.adminToken,
    body: {
      username: other.user.username,
      email: other.user.email,
      points: 10,
      is_active: true,
    },
  });
  const theirs = await f.server.api('POST', '/api/client/blast-requests', {
    token: other.token,
    body: { target_numbers: [OTHER], template_id: TEXT_TEMPLATE, parameters: ['Rp150.000'] },
  });
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
  const readTheirs = async () =>
    (
      await f.server.api('GET', `/api/client/blast-requests/${theirs.body.id}`, {
        token: other.token,
      })
    ).body;
  const done = await readUntil(
    readTheirs,
    (b) => b.numbers[0].delivery.state === 'read',
    20_000,
    'the other blast read',
  );
  expect(done).toMatchObject({ status: 'completed', successful_count: 1 });

  // The refused events wait, due later; the first number is still sent.
  const waiting = await kept();
  expect(waiting.length).toBeGreaterThan(0);
  expect((await f.read(first.id)).numbers[0].delivery.state).toBe('sent');

  // Once the fault is gone, they are applied at their next try.
  await sql
    .raw(
      'drop trigger refuse_delivered' +
        (f.server.database.engine === 'postgres' ? ' on blast_numbers' : ''),
    )
    .execute(f.server.database.db);
  const read = await f.until(first.id, (b) => b.numbers[0].delivery.state === 'read');
  expect(read.numbers[0].delivery.delivered_at).not.toBeNull();
  expect(await kept()).toEqual([]);
  expect(await checkLedger(f.server.database.db)).toEqual([]);
});
