// A refund gives back what its blast took, even to a balance the admin has since raised to the
// limit: delivery's refunds are never refused, so one client's settled blast cannot hold back the
// webhook events, and the blasts, of every other client.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_BALANCE } from '#common/points.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import {
  numberEnding,
  startDeliveryFixture,
  TEXT_TEMPLATE,
  type DeliveryFixture,
} from '#server/test/delivery-fixture.ts';
import { readUntil } from '#server/test/processes.ts';

const READ = numberEnding(7401, '2000');
const FAILED = numberEnding(7402, '0002');
const NO_WHATSAPP = numberEnding(7403, '0003');

let f: DeliveryFixture;
beforeAll(async () => {
  f = await startDeliveryFixture({
    points: MAX_BALANCE,
    // The statuses come seconds after each send: time for the admin's edit to land first.
    whatsapp: {
      outcomes: { [FAILED]: 'failed:131049', [NO_WHATSAPP]: 'undeliverable' },
      statusDelayMs: 3000,
    },
  });
});
afterAll(() => f?.close());

const setBalance = async (
  user: { id: string; username: string; email: string },
  points: number,
) => {
  const answer = await f.server.api('PUT', `/api/admin/users/${user.id}`, {
    token: f.server.adminToken,
    body: { username: user.username, email: user.email, points, is_active: true },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};

it('refunds past the limit, and another client’s blast goes on being settled', async () => {
  const me = (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body;
  const blast = await f.blast([READ, FAILED, NO_WHATSAPP]);
  // While the blast is sent, the admin sets the balance to the limit again.
  await setBalance(me, MAX_BALANCE);

  const other = await f.server.createClient();
  await setBalance(other.user, 10);
  const theirs = await f.server.api('POST', '/api/client/blast-requests', {
    token: other.token,
    body: {
      target_numbers: [numberEnding(7404, '2000')],
      template_id: TEXT_TEMPLATE,
      parameters: ['Rp150.000'],
    },
  });
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);

  const settled = await f.until(blast.id, (b) => b.refund_points === 2);
  expect(settled).toMatchObject({
    status: 'completed',
    successful_count: 1,
    failed_count: 1,
    no_wa_count: 1,
  });
  const after = (await f.server.api('GET', '/api/auth/me', { token: f.client.token })).body;
  expect(after.points).toBe(MAX_BALANCE + 2);

  const read = async () =>
    (
      await f.server.api('GET', `/api/client/blast-requests/${theirs.body.id}`, {
        token: other.token,
      })
    ).body;
  const done = await readUntil(read, (b) => b.status === 'completed', 20_000, 'the other blast');
  expect(done).toMatchObject({ successful_count: 1, refund_points: 0 });
  expect(await checkLedger(f.server.database.db)).toEqual([]);
});
