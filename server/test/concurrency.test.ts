// Races over real HTTP: bursts of requests released together on fresh sockets, against one
// in-process server and against two server processes on one database; the ledger holds after each.
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/connection.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { ADMIN, engine, startServer } from './helpers.ts';
import {
  addPricing,
  balanceEdit,
  burst,
  makeClient,
  phoneNumbers,
  pick,
  PRICE_PER_POINT,
  processDatabase,
  seededRandom,
  seedFrom,
  send,
  signIn,
  spawnServer,
  stopChildren,
  statusCounts,
  waitHealthy,
  freePort,
  type ClientAccount,
  type HttpAnswer,
  type RequestSpec,
} from './processes.ts';

// A failed test may leave a server process behind: none outlives this file.
afterAll(stopChildren);

interface Cluster {
  urls: string[];
  adminToken: string;
  db: Db;
  close(): Promise<void>;
}

async function inProcess(): Promise<Cluster> {
  // Races of up to 200 requests from one client: the bound on a client's expensive requests in
  // flight would answer most of them 429 before they could race (in-flight.test.ts tests it).
  const server = await startServer({ clientInFlight: 0 });
  return {
    urls: [server.url],
    adminToken: server.adminToken,
    db: server.database.db,
    close: () => server.close(),
  };
}

/** Two server processes started at the same moment on one fresh database. */
async function twoProcesses(): Promise<Cluster> {
  const database = await processDatabase();
  const [portA, portB] = [await freePort(), await freePort()];
  const servers = [spawnServer(database, portA), spawnServer(database, portB)];
  await Promise.all(servers.map((s) => waitHealthy(s)));
  const handle = database.open();
  return {
    urls: servers.map((s) => s.url),
    adminToken: await signIn(servers[0]!.url, ADMIN.email, ADMIN.password),
    db: handle.db,
    async close() {
      await Promise.all(servers.map((s) => s.kill('SIGTERM')));
      await handle.close();
      await database.drop();
    },
  };
}

const seed = seedFrom('CONCURRENCY_SEED', `concurrency ${engine}`);
const random = seededRandom(seed);

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const MODES = [
  { mode: 'one server', start: inProcess },
  {
    mode:
      engine === 'sqlite'
        ? 'two server processes on one SQLite file'
        : 'two server processes on one PostgreSQL schema',
    start: twoProcesses,
  },
];

describe.each(MODES)('concurrency: $mode', ({ start }) => {
  let cluster: Cluster;
  const at = (i: number) => cluster.urls[i % cluster.urls.length]!;

  beforeAll(async () => {
    cluster = await start();
    await addPricing(cluster.urls[0]!, cluster.adminToken);
  }, 120_000);
  afterAll(() => cluster?.close());
  afterEach(async () => {
    expect(await checkLedger(cluster.db)).toEqual([]);
  });

  const balance = async (id: string) =>
    (
      await cluster.db
        .selectFrom('users')
        .select('points')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).points;
  const entries = (userId: string) =>
    cluster.db.selectFrom('point_transactions').selectAll().where('user_id', '=', userId).execute();

  async function clients(n: number, points: number): Promise<ClientAccount[]> {
    const made: ClientAccount[] = [];
    for (let i = 0; i < n; i += 1)
      made.push(await makeClient(cluster.urls[0]!, cluster.adminToken, points));
    return made;
  }

  async function topUps(owners: ClientAccount[], n: number) {
    const made: { id: string; owner: ClientAccount; points: number }[] = [];
    for (let i = 0; i < n; i += 1) {
      const owner = owners[i % owners.length]!;
      const points = 10 + i;
      const answer = await send({
        url: cluster.urls[0]!,
        method: 'POST',
        path: '/api/client/point-requests',
        token: owner.token,
        body: {
          points_requested: points,
          amount_paid: points * PRICE_PER_POINT,
          payment_proof_url: null,
        },
      });
      expect(answer.status, answer.text).toBe(201);
      made.push({ id: answer.body.id, owner, points });
    }
    return made;
  }

  const blastSpec = (
    i: number,
    owner: ClientAccount,
    body: { message: string; target_numbers: string[] },
    key?: string,
  ): RequestSpec => ({
    url: at(i),
    method: 'POST',
    path: '/api/client/blast-requests',
    token: owner.token,
    body: { ...body, image_url: null },
    headers: key ? { 'idempotency-key': key } : {},
  });

  it('200 simultaneous approvals of 20 top-ups: one credit each, one 200 and the rest 409', async () => {
    const owners = await clients(4, 0);
    const requests = await topUps(owners, 20);
    const specs = shuffle(
      requests.flatMap((r) =>
        Array.from({ length: 10 }, () => ({
          requestId: r.id,
          spec: {
            url: '',
            method: 'POST',
            path: `/api/admin/point-requests/${r.id}/approve`,
            token: cluster.adminToken,
          },
        })),
      ),
    ).map((s, i) => ({ ...s, spec: { ...s.spec, url: at(i) } }));
    const answers = await burst(specs.map((s) => s.spec));
    expect(answers).toHaveLength(200);
    expect(statusCounts(answers)).toEqual({ 200: 20, 409: 180 });

    for (const r of requests) {
      const mine = answers.filter((_, i) => specs[i]!.requestId === r.id);
      expect(statusCounts(mine)).toEqual({ 200: 1, 409: 9 });
      for (const a of mine.filter((a) => a.status === 409))
        expect(a.body.detail).toBe('Request poin sudah diproses sebelumnya');
      const credits = await cluster.db
        .selectFrom('point_transactions')
        .selectAll()
        .where('point_request_id', '=', r.id)
        .execute();
      expect(credits.map((c) => [c.type, c.delta])).toEqual([['topup', r.points]]);
    }
    for (const owner of owners) {
      const expected = requests.filter((r) => r.owner === owner).reduce((n, r) => n + r.points, 0);
      expect(await balance(owner.id)).toBe(expected);
    }
  });

  it('approve and reject racing on each of 20 top-ups: one decision wins, the credit matches it', async () => {
    const owners = await clients(4, 0);
    const requests = await topUps(owners, 20);
    const specs = shuffle(
      requests.flatMap((r) =>
        (['approve', 'reject'] as const).flatMap((action) =>
          Array.from({ length: 5 }, () => ({ requestId: r.id, action })),
        ),
      ),
    ).map((s, i) => ({
      ...s,
      spec: {
        url: at(i),
        method: 'POST',
        path: `/api/admin/point-requests/${s.requestId}/${s.action}`,
        token: cluster.adminToken,
      },
    }));
    const answers = await burst(specs.map((s) => s.spec));
    expect(statusCounts(answers)).toEqual({ 200: 20, 409: 180 });

    const approved = new Set<string>();
    for (const r of requests) {
      const winners = specs.filter((s, i) => s.requestId === r.id && answers[i]!.status === 200);
      expect(winners).toHaveLength(1);
      const decision = winners[0]!.action === 'approve' ? 'approved' : 'rejected';
      const row = await cluster.db
        .selectFrom('point_requests')
        .select('status')
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(decision);
      const credits = await cluster.db
        .selectFrom('point_transactions')
        .select('delta')
        .where('point_request_id', '=', r.id)
        .execute();
      expect(credits.map((c) => c.delta)).toEqual(decision === 'approved' ? [r.points] : []);
      if (decision === 'approved') approved.add(r.id);
    }
    for (const owner of owners) {
      const expected = requests
        .filter((r) => r.owner === owner && approved.has(r.id))
        .reduce((n, r) => n + r.points, 0);
      expect(await balance(owner.id)).toBe(expected);
    }
  });

  it('new top-ups of a client racing the approval of its others: all answered, counts exact', async () => {
    const owners = await clients(2, 0);
    const requests = await topUps(owners, 20);
    const approvals = requests.map((r, i) => ({
      url: at(i),
      method: 'POST',
      path: `/api/admin/point-requests/${r.id}/approve`,
      token: cluster.adminToken,
    }));
    const newOnes = Array.from({ length: 40 }, (_, i) => ({
      url: at(i + 1),
      method: 'POST',
      path: '/api/client/point-requests',
      token: owners[i % 2]!.token,
      body: { points_requested: 10, amount_paid: 10 * PRICE_PER_POINT, payment_proof_url: null },
    }));
    const answers = await burst(shuffle<RequestSpec>([...approvals, ...newOnes]));
    expect(statusCounts(answers)).toEqual({ 200: 20, 201: 40 });

    for (const owner of owners) {
      const approved = requests.filter((r) => r.owner === owner).reduce((n, r) => n + r.points, 0);
      expect(await balance(owner.id)).toBe(approved);
      const page = await send({
        url: at(0),
        method: 'GET',
        path: '/api/client/point-requests',
        token: owner.token,
      });
      expect(page.body.summary).toEqual({
        pending: 20,
        approved: 10,
        rejected: 0,
        approved_points: approved,
      });
    }
  });

  it('50 simultaneous blasts with one Idempotency-Key: one blast, one debit, identical answers', async () => {
    const [owner] = await clients(1, 1000);
    const key = `kunci-${crypto.randomUUID()}`;
    const body = { message: 'Promo hari ini', target_numbers: phoneNumbers(7) };
    const answers = await burst(
      Array.from({ length: 50 }, (_, i) => blastSpec(i, owner!, body, key)),
    );
    expect(statusCounts(answers)).toEqual({ 201: 50 });
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const blasts = await cluster.db
      .selectFrom('blasts')
      .select('id')
      .where('user_id', '=', owner!.id)
      .execute();
    expect(blasts.map((b) => b.id)).toEqual([answers[0]!.body.id]);
    expect(
      (await entries(owner!.id)).filter((e) => e.type === 'usage').map((e) => e.delta),
    ).toEqual([-7]);
    expect(await balance(owner!.id)).toBe(993);

    // The same key with another body, 20 at once: 422 each, nothing changes.
    const other = { message: 'Pesan lain', target_numbers: phoneNumbers(3, 100) };
    const mismatched = await burst(
      Array.from({ length: 20 }, (_, i) => blastSpec(i, owner!, other, key)),
    );
    expect(statusCounts(mismatched)).toEqual({ 422: 20 });
    expect(mismatched[0]!.body.detail).toBe(
      'Idempotency-Key sudah dipakai untuk permintaan yang berbeda',
    );
    expect(await balance(owner!.id)).toBe(993);
    expect(await entries(owner!.id)).toHaveLength(2);
  });

  it('one new Idempotency-Key with two bodies at once: one body wins, the other answers 422', async () => {
    const [owner] = await clients(1, 1000);
    const key = `kunci-${crypto.randomUUID()}`;
    const bodies = [
      { message: 'Versi A', target_numbers: phoneNumbers(4) },
      { message: 'Versi B', target_numbers: phoneNumbers(9, 50) },
    ];
    const which = shuffle(Array.from({ length: 50 }, (_, i) => i % 2));
    const answers = await burst(which.map((b, i) => blastSpec(i, owner!, bodies[b]!, key)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length + answers.filter((a) => a.status === 422).length).toBe(50);
    const winner = which[answers.findIndex((a) => a.status === 201)]!;
    expect(answers.map((a) => a.status)).toEqual(which.map((b) => (b === winner ? 201 : 422)));
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    const cost = bodies[winner]!.target_numbers.length;
    expect(await balance(owner!.id)).toBe(1000 - cost);
    const blasts = await cluster.db
      .selectFrom('blasts')
      .select(['id', 'message'])
      .where('user_id', '=', owner!.id)
      .execute();
    expect(blasts).toEqual([{ id: created[0]!.body.id, message: bodies[winner]!.message }]);
  });

  it('balance 100 and 100 simultaneous 10-number blasts: exactly 10 succeed, balance ends at 0', async () => {
    const [owner] = await clients(1, 100);
    // Half carry their own Idempotency-Key, half none: both paths race for the same points.
    const answers = await burst(
      Array.from({ length: 100 }, (_, i) =>
        blastSpec(
          i,
          owner!,
          { message: `Blast ${i}`, target_numbers: phoneNumbers(10, i * 10) },
          i % 2 ? `kunci-${crypto.randomUUID()}` : undefined,
        ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 10, 409: 90 });
    for (const a of answers.filter((a) => a.status === 409))
      expect(a.body.detail).toMatch(/^Poin tidak cukup/i);
    expect(await balance(owner!.id)).toBe(0);
    const blasts = await cluster.db
      .selectFrom('blasts')
      .select('id')
      .where('user_id', '=', owner!.id)
      .execute();
    expect(blasts.map((b) => b.id).sort()).toEqual(
      answers
        .filter((a) => a.status === 201)
        .map((a) => a.body.id)
        .sort(),
    );
    // Failed attempts left no key behind: the same key may be used again later.
    const keys = await cluster.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('user_id', '=', owner!.id)
      .execute();
    expect(keys.length).toBe(answers.filter((a, i) => a.status === 201 && i % 2 === 1).length);
  });

  it('results, per-number edits, reject and cancel racing on the same blasts while the client spends', async () => {
    // The client's last points go into the blasts, so taking refunds back can fail for want of points.
    const [owner] = await clients(1, 60);
    const blastIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await send(
        blastSpec(0, owner!, { message: `Hasil ${i}`, target_numbers: phoneNumbers(20, i * 20) }),
      );
      expect(created.status, created.text).toBe(201);
      blastIds.push(created.body.id);
    }
    const admin = cluster.adminToken;
    const specs: { kind: string; spec: RequestSpec }[] = [];
    for (let i = 0; i < 60; i += 1) {
      const s = Math.floor(random() * 10);
      const f = Math.floor(random() * (20 - s));
      const n = Math.max(s + f === 0 ? 1 : 0, Math.floor(random() * (20 - s - f)));
      specs.push({
        kind: 'result',
        spec: {
          url: '',
          method: 'POST',
          path: `/api/admin/blast-requests/${pick(random, blastIds)}/result`,
          token: admin,
          body: { successful_count: s, failed_count: f, no_wa_count: n, admin_notes: `r${i}` },
        },
      });
    }
    for (let i = 0; i < 30; i += 1) {
      const changes: Record<string, string> = {};
      for (let j = 0; j < 4; j += 1)
        changes[String(Math.floor(random() * 20))] = pick(random, [
          'pending',
          'success',
          'failed',
          'no_wa',
        ]);
      specs.push({
        kind: 'numbers',
        spec: {
          url: '',
          method: 'POST',
          path: `/api/admin/blast-requests/${pick(random, blastIds)}/number-statuses`,
          token: admin,
          body: { number_statuses: changes },
        },
      });
    }
    for (let i = 0; i < 5; i += 1) {
      specs.push({
        kind: 'reject',
        spec: {
          url: '',
          method: 'POST',
          path: `/api/admin/blast-requests/${pick(random, blastIds)}/reject`,
          token: admin,
        },
      });
      specs.push({
        kind: 'cancel',
        spec: {
          url: '',
          method: 'POST',
          path: `/api/client/blast-requests/${pick(random, blastIds)}/cancel`,
          token: owner!.token,
        },
      });
    }
    for (let i = 0; i < 20; i += 1) {
      specs.push({
        kind: 'blast',
        spec: blastSpec(0, owner!, {
          message: `Belanja ${i}`,
          target_numbers: phoneNumbers(5, 500 + i * 5),
        }),
      });
    }
    shuffle(specs).forEach((s, i) => (s.spec.url = at(i)));
    const answers = await burst(specs.map((s) => s.spec));
    const byKind = (kind: string) =>
      statusCounts(answers.filter((_, i) => specs[i]!.kind === kind));
    console.log(`[concurrency ${engine}] mixed blast edits`, {
      result: byKind('result'),
      numbers: byKind('numbers'),
      reject: byKind('reject'),
      cancel: byKind('cancel'),
      blast: byKind('blast'),
    });
    // Every answer is a decision: done, or refused with a reason. Never a crash or a lost request.
    for (const [i, a] of answers.entries())
      expect([200, 201, 409, 422], `${specs[i]!.kind}: ${a.text}`).toContain(a.status);
    for (const id of blastIds) {
      const blast = await cluster.db
        .selectFrom('blasts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const expected =
        blast.status === 'completed'
          ? blast.failed_count + blast.no_wa_count
          : blast.status === 'pending'
            ? 0
            : blast.points_used;
      expect(blast.refund_points).toBe(expected);
    }
  });

  it('result, reject and cancel racing on each of 10 pending blasts: one wins, the refund matches it', async () => {
    const [owner] = await clients(1, 100);
    const blastIds: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const created = await send(
        blastSpec(0, owner!, { message: `Tunggu ${i}`, target_numbers: phoneNumbers(10, i * 10) }),
      );
      expect(created.status, created.text).toBe(201);
      blastIds.push(created.body.id);
    }
    const actions = shuffle(
      blastIds.flatMap((id) =>
        (['result', 'reject', 'cancel'] as const).flatMap((action) =>
          Array.from({ length: 3 }, () => ({ id, action })),
        ),
      ),
    );
    const answers = await burst(
      actions.map(({ id, action }, i) => ({
        url: at(i),
        method: 'POST',
        path:
          action === 'cancel'
            ? `/api/client/blast-requests/${id}/cancel`
            : `/api/admin/blast-requests/${id}/${action}`,
        token: action === 'cancel' ? owner!.token : cluster.adminToken,
        body:
          action === 'result'
            ? { successful_count: 6, failed_count: 3, no_wa_count: 1, admin_notes: null }
            : undefined,
      })),
    );
    const outcome = { result: 'completed', reject: 'rejected', cancel: 'cancelled' } as const;
    let refunded = 0;
    for (const id of blastIds) {
      const mine = actions.flatMap((a, i) => (a.id === id ? [{ ...a, answer: answers[i]! }] : []));
      const closing = mine.filter((m) => m.action !== 'result' && m.answer.status === 200);
      const results = mine.filter((m) => m.action === 'result' && m.answer.status === 200);
      // Either a close won (no result can follow) or results won (every later close refused).
      expect(closing.length <= 1 && (closing.length === 0 || results.length === 0)).toBe(true);
      expect(closing.length + results.length).toBeGreaterThan(0);
      const blast = await cluster.db
        .selectFrom('blasts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(blast.status).toBe(outcome[closing[0]?.action ?? 'result']);
      expect(blast.refund_points).toBe(blast.status === 'completed' ? 4 : 10);
      refunded += blast.refund_points;
    }
    expect(await balance(owner!.id)).toBe(refunded);
  });

  it('admin balance edits while the client spends and top-ups are approved', async () => {
    const [owner] = await clients(1, 200);
    const requests = await topUps([owner!], 5);
    const specs: { kind: string; spec: RequestSpec }[] = [];
    for (let i = 0; i < 100; i += 1)
      specs.push({
        kind: 'blast',
        spec: blastSpec(0, owner!, {
          message: `Belanja ${i}`,
          target_numbers: phoneNumbers(3, i * 3),
        }),
      });
    for (let i = 0; i < 30; i += 1)
      specs.push({
        kind: 'edit',
        spec: balanceEdit('', cluster.adminToken, owner!, Math.floor(random() * 150)),
      });
    for (const r of requests)
      specs.push({
        kind: 'approve',
        spec: {
          url: '',
          method: 'POST',
          path: `/api/admin/point-requests/${r.id}/approve`,
          token: cluster.adminToken,
        },
      });
    shuffle(specs).forEach((s, i) => (s.spec.url = at(i)));
    const answers = await burst(specs.map((s) => s.spec));
    const of = (kind: string) => answers.filter((_, i) => specs[i]!.kind === kind);
    console.log(`[concurrency ${engine}] balance edits while spending`, {
      blast: statusCounts(of('blast')),
      edit: statusCounts(of('edit')),
      approve: statusCounts(of('approve')),
    });
    expect(statusCounts(of('edit'))).toEqual({ 200: 30 });
    expect(statusCounts(of('approve'))).toEqual({ 200: 5 });
    for (const a of of('blast')) expect([201, 409], a.text).toContain(a.status);

    // Each answered edit set the balance it named at its moment: its entry ends at that value.
    const ledger = await entries(owner!.id);
    const edits = of('edit').map((a: HttpAnswer) => a.body.points as number);
    const adjustments = ledger
      .filter((e) => e.type === 'adjustment' && e.seq > 1)
      .map((e) => e.balance_after);
    for (const value of adjustments) expect(edits).toContain(value);
    const usage = ledger.filter((e) => e.type === 'usage');
    expect(usage).toHaveLength(of('blast').filter((a) => a.status === 201).length);
    const last = ledger.sort((a, b) => b.seq - a.seq)[0]!;
    expect(await balance(owner!.id)).toBe(last.balance_after);
  });
});
