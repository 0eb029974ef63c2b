// Crash rounds: a real server process under a mixed money-moving load is killed with SIGKILL at a
// random moment and restarted on the same database; then every acknowledged request must be there,
// every unacknowledged one must settle to exactly one effect when retried, and the ledger must hold.
import crypto from 'node:crypto';
import type { Db, Engine } from '#server/db/connection.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { ADMIN } from './helpers.ts';
import {
  addPricing,
  balanceEdit,
  freePort,
  makeClient,
  phoneNumbers,
  pick,
  PRICE_PER_POINT,
  processDatabase,
  seededRandom,
  send,
  signIn,
  spawnServer,
  waitHealthy,
  type ChildServer,
  type ClientAccount,
  type HttpAnswer,
  type ProcessDatabase,
  type RequestSpec,
} from './processes.ts';

export interface CrashOptions {
  engine: Engine;
  rounds: number;
  seed: number;
  /** The kill comes at a random moment in this window after the load starts (ms). */
  killAfterMs?: [number, number];
  /** Requests in flight at once. */
  workers?: number;
  log?: (line: string) => void;
}

export interface CrashReport {
  engine: Engine;
  seed: number;
  rounds: number;
  requests: number;
  acknowledged: number;
  /** Requests that got no answer because the server died under them (or was already gone). */
  unacknowledged: number;
  /** Unacknowledged requests retried after the restart (blasts with their Idempotency-Key, decisions, closes, results). */
  retried: number;
  /** Of the retried blasts, how many the crashed server had already committed. */
  blastsFoundCommitted: number;
  blasts: number;
  durationMs: number;
}

interface BlastModel {
  key: string;
  owner: ClientAccount;
  body: { message: string; target_numbers: string[]; image_url: null };
  id?: string;
  text?: string;
  resultTried: boolean;
  closeTried: boolean;
}

interface TopUpModel {
  id: string;
  owner: ClientAccount;
  decided: boolean;
}

/** Runs after the restart, with the new server's address and a connection of the test's own. */
type Check = (url: string, db: Db) => Promise<void>;

function fail(message: string): never {
  throw new Error(message);
}

/** Runs `rounds` kill-and-restart rounds on one fresh database; throws on the first broken property. */
export async function runCrashRounds(options: CrashOptions): Promise<CrashReport> {
  const { engine, rounds, seed } = options;
  const [killMin, killMax] = options.killAfterMs ?? [150, 1200];
  const workers = options.workers ?? 6;
  const log = options.log ?? (() => undefined);
  const random = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const started = Date.now();
  const report: CrashReport = {
    engine,
    seed,
    rounds: 0,
    requests: 0,
    acknowledged: 0,
    unacknowledged: 0,
    retried: 0,
    blastsFoundCommitted: 0,
    blasts: 0,
    durationMs: 0,
  };

  const database: ProcessDatabase = await processDatabase(engine);
  let server: ChildServer = spawnServer(database, await freePort());
  try {
    await waitHealthy(server);
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    await addPricing(server.url, admin);
    const accounts: ClientAccount[] = [];
    for (let i = 0; i < 4; i += 1) accounts.push(await makeClient(server.url, admin, 1_000_000));

    const blasts: BlastModel[] = [];
    const topUps: TopUpModel[] = [];
    let numberBase = 0;

    for (let round = 1; round <= rounds; round += 1) {
      const label = `${engine} round ${round}/${rounds} (seed ${seed})`;
      const verifyAcked: Check[] = [];
      const retries: Check[] = [];
      const unackedBlasts: BlastModel[] = [];
      const url = server.url;
      let stopped = false;
      let sent = 0;
      let acked = 0;

      /** Sends one request; an answer of the dead or dying server counts as unacknowledged. */
      const call = async (spec: Omit<RequestSpec, 'url'>): Promise<HttpAnswer> => {
        sent += 1;
        const answer = await send({ ...spec, url }, 30_000);
        if (answer.status !== 0) acked += 1;
        if (answer.status >= 500)
          fail(`${label}: ${spec.method} ${spec.path} answered ${answer.status} ${answer.text}`);
        return answer;
      };
      const expectStatus = (answer: HttpAnswer, what: string, ...allowed: number[]) => {
        if (!allowed.includes(answer.status))
          fail(`${label}: ${what} answered ${answer.status} ${answer.text}`);
      };

      const operations: [number, () => Promise<void>][] = [
        [
          4,
          async () => {
            // A blast, always with its Idempotency-Key.
            const owner = pick(random, accounts);
            const count = int(1, 20);
            const model: BlastModel = {
              key: `crash-${crypto.randomUUID()}`,
              owner,
              body: {
                message: `Blast ${blasts.length}`,
                target_numbers: phoneNumbers(count, (numberBase += count)),
                image_url: null,
              },
              resultTried: false,
              closeTried: false,
            };
            blasts.push(model);
            const spec = {
              method: 'POST',
              path: '/api/client/blast-requests',
              token: owner.token,
              body: model.body,
              headers: { 'idempotency-key': model.key },
            };
            const answer = await call(spec);
            if (answer.status === 0) {
              unackedBlasts.push(model);
              retries.push(async (nextUrl) => {
                const first = await send({ ...spec, url: nextUrl });
                expectStatus(first, `retried blast ${model.key}`, 201);
                const again = await send({ ...spec, url: nextUrl });
                if (again.text !== first.text) fail(`${label}: blast ${model.key} replay differs`);
                model.id = first.body.id;
                model.text = first.text;
              });
              return;
            }
            expectStatus(answer, 'blast', 201);
            model.id = answer.body.id;
            model.text = answer.text;
            verifyAcked.push(async (nextUrl) => {
              const replay = await send({ ...spec, url: nextUrl });
              if (replay.status !== 201 || replay.text !== model.text)
                fail(
                  `${label}: acknowledged blast ${model.id} not replayed after restart: ${replay.status} ${replay.text}`,
                );
            });
          },
        ],
        [
          2,
          async () => {
            const owner = pick(random, accounts);
            const points = int(1, 50);
            const answer = await call({
              method: 'POST',
              path: '/api/client/point-requests',
              token: owner.token,
              body: {
                points_requested: points,
                amount_paid: points * PRICE_PER_POINT,
                payment_proof_url: null,
              },
            });
            if (answer.status === 0) return; // one insert: all-or-nothing is the ledger check's to see
            expectStatus(answer, 'top-up request', 201);
            const id = answer.body.id as string;
            topUps.push({ id, owner, decided: false });
            verifyAcked.push(async (_url, db) => {
              const row = await db
                .selectFrom('point_requests')
                .select('id')
                .where('id', '=', id)
                .executeTakeFirst();
              if (!row) fail(`${label}: acknowledged top-up request ${id} is missing`);
            });
          },
        ],
        [
          2,
          async () => {
            const open = topUps.filter((t) => !t.decided);
            if (open.length === 0) return;
            const topUp = pick(random, open);
            topUp.decided = true;
            const action = random() < 0.7 ? 'approve' : 'reject';
            const status = action === 'approve' ? 'approved' : 'rejected';
            const spec = {
              method: 'POST',
              path: `/api/admin/point-requests/${topUp.id}/${action}`,
              token: admin,
            };
            const answer = await call(spec);
            const verify = async (db: Db) => {
              const row = await db
                .selectFrom('point_requests')
                .select('status')
                .where('id', '=', topUp.id)
                .executeTakeFirstOrThrow();
              if (row.status !== status)
                fail(`${label}: top-up ${topUp.id} is ${row.status}, expected ${status}`);
            };
            if (answer.status === 0) {
              retries.push(async (nextUrl, db) => {
                expectStatus(await send({ ...spec, url: nextUrl }), `retried ${action}`, 200, 409);
                await verify(db);
              });
              return;
            }
            expectStatus(answer, action, 200);
            verifyAcked.push((_url, db) => verify(db));
          },
        ],
        [
          2,
          async () => {
            const open = blasts.filter((b) => b.id && !b.closeTried);
            if (open.length === 0) return;
            const blast = pick(random, open);
            blast.resultTried = true;
            const total = blast.body.target_numbers.length;
            const s = int(0, total);
            const f = int(0, total - s);
            const n = Math.max(s + f === 0 ? 1 : 0, int(0, total - s - f));
            const spec = {
              method: 'POST',
              path: `/api/admin/blast-requests/${blast.id}/result`,
              token: admin,
              body: { successful_count: s, failed_count: f, no_wa_count: n, admin_notes: null },
            };
            const verify = async (db: Db) => {
              const row = await db
                .selectFrom('blasts')
                .select('status')
                .where('id', '=', blast.id!)
                .executeTakeFirstOrThrow();
              if (row.status !== 'completed')
                fail(`${label}: blast ${blast.id} result lost (${row.status})`);
            };
            const answer = await call(spec);
            if (answer.status === 0) {
              retries.push(async (nextUrl, db) => {
                expectStatus(await send({ ...spec, url: nextUrl }), 'retried result', 200);
                await verify(db);
              });
              return;
            }
            expectStatus(answer, 'result', 200);
            verifyAcked.push((_url, db) => verify(db));
          },
        ],
        [
          1,
          async () => {
            const open = blasts.filter((b) => b.id && !b.closeTried && !b.resultTried);
            if (open.length === 0) return;
            const blast = pick(random, open);
            blast.closeTried = true;
            const cancel = random() < 0.5;
            const spec = cancel
              ? {
                  method: 'POST',
                  path: `/api/client/blast-requests/${blast.id}/cancel`,
                  token: blast.owner.token,
                }
              : {
                  method: 'POST',
                  path: `/api/admin/blast-requests/${blast.id}/reject`,
                  token: admin,
                };
            const status = cancel ? 'cancelled' : 'rejected';
            const verify = async (db: Db) => {
              const row = await db
                .selectFrom('blasts')
                .select('status')
                .where('id', '=', blast.id!)
                .executeTakeFirstOrThrow();
              if (row.status !== status)
                fail(`${label}: blast ${blast.id} is ${row.status}, expected ${status}`);
            };
            const answer = await call(spec);
            if (answer.status === 0) {
              retries.push(async (nextUrl, db) => {
                expectStatus(await send({ ...spec, url: nextUrl }), `retried ${status}`, 200, 409);
                await verify(db);
              });
              return;
            }
            expectStatus(answer, status, 200);
            verifyAcked.push((_url, db) => verify(db));
          },
        ],
        [
          1,
          async () => {
            const owner = pick(random, accounts);
            const answer = await call(balanceEdit('', admin, owner, int(500_000, 1_000_000)));
            if (answer.status !== 0) expectStatus(answer, 'balance edit', 200);
          },
        ],
      ];
      const weight = operations.reduce((n, [w]) => n + w, 0);
      const nextOperation = () => {
        let r = random() * weight;
        for (const [w, op] of operations) if ((r -= w) < 0) return op;
        return operations[0]![1];
      };

      const killAt = int(killMin, killMax);
      let failure: unknown = null;
      const load = Array.from({ length: workers }, async () => {
        try {
          while (!stopped) await nextOperation()();
        } catch (error) {
          failure ??= error;
          stopped = true;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, killAt));
      // No new request after this tick; the ones in flight die with the server.
      stopped = true;
      await server.kill('SIGKILL');
      await Promise.all(load);
      if (failure) throw failure;

      const restartedAt = Date.now();
      server = spawnServer(database, await freePort());
      await waitHealthy(server);
      const restartMs = Date.now() - restartedAt;
      const handle = database.open();
      const { db } = handle;
      let after: { violations: unknown[]; blasts: string[]; keys: number };
      let committedBefore: string[];
      try {
        const violations = await checkLedger(db);
        if (violations.length)
          fail(`${label}: ledger after restart: ${JSON.stringify(violations)}`);
        for (const verify of verifyAcked) await verify(server.url, db);
        committedBefore = (await db.selectFrom('blasts').select('id').execute()).map((b) => b.id);
        for (const retry of retries) await retry(server.url, db);
        after = {
          violations: await checkLedger(db),
          blasts: (await db.selectFrom('blasts').select('id').execute()).map((b) => b.id),
          keys: Number(
            (
              await db
                .selectFrom('idempotency_keys')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        };
      } finally {
        await handle.close();
      }
      if (after.violations.length)
        fail(`${label}: ledger after retries: ${JSON.stringify(after.violations)}`);
      // Every key ever sent settled to exactly one blast, and no blast exists without its key.
      const settled = blasts.filter((b) => b.id);
      const expected = new Set(settled.map((b) => b.id));
      if (settled.length !== blasts.length) fail(`${label}: a blast key never settled`);
      if (
        expected.size !== blasts.length ||
        after.blasts.length !== blasts.length ||
        after.keys !== blasts.length
      )
        fail(
          `${label}: ${blasts.length} keys sent, ${expected.size} distinct blasts answered, ${after.blasts.length} blasts and ${after.keys} keys stored`,
        );
      for (const id of after.blasts)
        if (!expected.has(id)) fail(`${label}: blast ${id} has no key behind it`);
      const before = new Set(committedBefore);
      report.blastsFoundCommitted += unackedBlasts.filter((b) => before.has(b.id!)).length;

      report.rounds = round;
      report.requests += sent;
      report.acknowledged += acked;
      report.unacknowledged += sent - acked;
      report.retried += retries.length;
      report.blasts = blasts.length;
      log(
        `${label}: killed after ${killAt} ms; ${sent} requests, ${acked} acknowledged, ${sent - acked} not, ${retries.length} retried; restart ${restartMs} ms, checks ${Date.now() - restartedAt - restartMs} ms; ${blasts.length} blasts in all`,
      );
    }
  } finally {
    await server.kill('SIGKILL');
    await database.drop();
  }
  report.durationMs = Date.now() - started;
  return report;
}
