// Durability: the settings asserted at start on each engine, and two server processes sharing one
// database (one of them killed mid-write) leave it intact with the ledger whole.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadSqlite } from '#server/db/sqlite-driver.ts';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import type { DbHandle } from '#server/db/connection.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { checkDurability } from '#server/db/durability.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { migrate, MIGRATIONS } from '#server/db/migrate.ts';
import type { Database } from '#server/db/schema.ts';
import { ADMIN, engine, startServer, TEST_DATABASE_URL, type TestServer } from './helpers.ts';
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
  seedFrom,
  send,
  signIn,
  spawnServer,
  stopChildren,
  startChild,
  waitHealthy,
  withDb,
  type ClientAccount,
  type ProcessDatabase,
  type RequestSpec,
} from './processes.ts';

// A failed test may leave a server process behind: none outlives this file.
afterAll(stopChildren);

describe(`durability settings (${engine})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it.runIf(engine === 'sqlite')(
    'the server runs SQLite in WAL with synchronous=FULL, and the file stays in WAL',
    async () => {
      const db = server.database.db;
      expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db)).rows).toEqual([
        { journal_mode: 'wal' },
      ]);
      expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows).toEqual([
        { synchronous: 2 },
      ]);
      expect(await checkDurability(server.database)).toEqual([]);
      // WAL is recorded in the file header (bytes 18 and 19 are 2), so every later opener sees it.
      const header = Buffer.alloc(20);
      const fd = fs.openSync(server.database.file!, 'r');
      fs.readSync(fd, header, 0, 20, 0);
      fs.closeSync(fd);
      expect([header[18], header[19]]).toEqual([2, 2]);
    },
  );

  it.runIf(engine === 'sqlite')(
    'the server refuses to start on SQLite without WAL or without synchronous=FULL',
    async () => {
      for (const [pragmas, message] of [
        [['journal_mode = DELETE', 'synchronous = FULL'], 'SQLite is not in WAL mode'],
        [['journal_mode = WAL', 'synchronous = NORMAL'], 'SQLite synchronous is not FULL'],
      ] as const) {
        const dir = fs.mkdtempSync(path.join(server.config.dataDir, 'weak-'));
        const sqlite = new (loadSqlite())(path.join(dir, 'sebar.sqlite'));
        for (const pragma of pragmas) sqlite.pragma(pragma);
        const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
        const handle: DbHandle = { db, engine: 'sqlite', file: null, close: () => db.destroy() };
        await expect(buildApp({ ...server.config, dataDir: dir, port: 0 }, handle)).rejects.toThrow(
          message,
        );
        await db.destroy();
      }
    },
  );

  it.runIf(engine === 'postgres')(
    'the server checks fsync, synchronous_commit and full_page_writes are on',
    async () => {
      const db = server.database.db;
      for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) {
        const { rows } = await sql<{
          value: string;
        }>`select current_setting(${setting}) as value`.execute(db);
        expect(rows, setting).toEqual([{ value: 'on' }]);
      }
      expect(await checkDurability(server.database)).toEqual([]);
    },
  );

  it.runIf(engine === 'postgres')(
    'on a PostgreSQL database with synchronous_commit off the server starts and logs a warning',
    async () => {
      const name = `sebar_weak_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client(TEST_DATABASE_URL);
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
        await admin.query(`alter database ${name} set synchronous_commit = off`);
        const url = new URL(TEST_DATABASE_URL);
        url.pathname = `/${name}`;
        const dataDir = fs.mkdtempSync(path.join(server.config.dataDir, 'weak-'));
        const database: ProcessDatabase = {
          engine: 'postgres',
          dataDir,
          env: { SEBAR_DATA_DIR: dataDir, DATABASE_URL: url.toString(), DATABASE_SCHEMA: '' },
          open: () => openPostgres(url.toString(), null, 1),
          drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
        };
        const child = await startChild(database, { LOG_LEVEL: 'warn' });
        try {
          const health = await send({ url: child.url, method: 'GET', path: '/api/health' });
          expect(health.body).toEqual({ status: 'ok', engine: 'postgres' });
          expect(child.output()).toContain(
            'PostgreSQL synchronous_commit is off: acknowledged writes may be lost in a crash',
          );
          expect(child.output()).not.toContain('PostgreSQL fsync is');
        } finally {
          await child.kill('SIGTERM');
          await database.drop();
        }
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});

// On SQLite one process's connections would wait on each other; two processes are tested below.
describe.runIf(engine === 'postgres')(
  'instances migrating one new PostgreSQL schema at once',
  () => {
    it('four migrations racing, ten times: every one succeeds and the schema is made once', async () => {
      for (let i = 0; i < 10; i += 1) {
        const database = await processDatabase();
        const handles = Array.from({ length: 4 }, () => database.open());
        try {
          const applied = await Promise.all(handles.map((h) => migrate(h)));
          // Each migration once in all; which instance applied which one may vary.
          expect(applied.flat().sort()).toEqual(MIGRATIONS.map(([name]) => name).sort());
        } finally {
          await Promise.all(handles.map((h) => h.close()));
          await database.drop();
        }
      }
    }, 120_000);
  },
);

describe(`two server processes on one ${engine === 'sqlite' ? 'SQLite file' : 'PostgreSQL schema'}`, () => {
  it('started together and loaded together, one killed mid-write: the database stays intact and the ledger whole', async () => {
    const seed = seedFrom('TWO_PROCESS_SEED', `two processes ${engine}`);
    const random = seededRandom(seed);
    const database = await processDatabase();
    // Both start at the same moment: both run the migration check and the first-admin insert.
    const servers = [
      spawnServer(database, await freePort()),
      spawnServer(database, await freePort()),
    ];
    try {
      await Promise.all(servers.map((s) => waitHealthy(s)));
      const urls = servers.map((s) => s.url);
      const admin = await signIn(urls[0]!, ADMIN.email, ADMIN.password);
      await addPricing(urls[0]!, admin);
      const accounts: ClientAccount[] = [];
      for (let i = 0; i < 3; i += 1) accounts.push(await makeClient(urls[1]!, admin, 100_000));

      const total = 600;
      const killAt = Math.floor(total * (0.3 + random() * 0.4));
      const acknowledgedBlasts = new Map<string, string>();
      const topUps: string[] = [];
      let next = 0;
      let numberBase = 0;
      const statuses: Record<string, number> = {};
      const worker = async () => {
        while (next < total) {
          const i = next++;
          if (i === killAt) await servers[0]!.kill('SIGKILL');
          // Until the kill both processes take requests; after it, only the survivor.
          const url = i > killAt ? urls[1]! : urls[i % 2]!;
          const owner = pick(random, accounts);
          const r = random();
          let spec: Omit<RequestSpec, 'url'>;
          let key: string | null = null;
          if (r < 0.5) {
            key = `dua-${crypto.randomUUID()}`;
            const count = 1 + Math.floor(random() * 30);
            spec = {
              method: 'POST',
              path: '/api/client/blast-requests',
              token: owner.token,
              headers: { 'idempotency-key': key },
              body: {
                message: `Dua ${i}`,
                target_numbers: phoneNumbers(count, (numberBase += count)),
                image_url: null,
              },
            };
          } else if (r < 0.65) {
            spec = {
              method: 'POST',
              path: '/api/client/point-requests',
              token: owner.token,
              body: {
                points_requested: 10,
                amount_paid: 10 * PRICE_PER_POINT,
                payment_proof_url: null,
              },
            };
          } else if (r < 0.8 && topUps.length) {
            spec = {
              method: 'POST',
              path: `/api/admin/point-requests/${pick(random, topUps)}/approve`,
              token: admin,
            };
          } else if (r < 0.9 && acknowledgedBlasts.size) {
            const id = pick(random, [...acknowledgedBlasts.values()]);
            spec = {
              method: 'POST',
              path: `/api/admin/blast-requests/${id}/result`,
              token: admin,
              body: { successful_count: 0, failed_count: 1, no_wa_count: 0, admin_notes: null },
            };
          } else {
            spec = balanceEdit('', admin, owner, 50_000 + Math.floor(random() * 50_000));
          }
          const answer = await send({ ...spec, url });
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status >= 500)
            throw new Error(`${spec.path}: ${answer.status} ${answer.text}`);
          if (key && answer.status === 201) acknowledgedBlasts.set(key, answer.body.id);
          if (spec.path === '/api/client/point-requests' && answer.status === 201)
            topUps.push(answer.body.id);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      console.log(
        `[two processes ${engine}] ${total} requests, process A killed at request ${killAt}; statuses ${JSON.stringify(statuses)}`,
      );
      expect(statuses[201]).toBeGreaterThan(0);
      await servers[1]!.kill('SIGTERM');

      await withDb(database, async ({ db }) => {
        if (engine === 'sqlite') {
          expect((await sql`pragma integrity_check`.execute(db)).rows).toEqual([
            { integrity_check: 'ok' },
          ]);
          expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
        }
        expect(await checkLedger(db)).toEqual([]);
        const stored = await db.selectFrom('blasts').select('id').execute();
        const ids = new Set(stored.map((b) => b.id));
        for (const id of acknowledgedBlasts.values()) expect(ids.has(id), id).toBe(true);
        const admins = await db
          .selectFrom('users')
          .select('id')
          .where('role', '=', 'super_admin')
          .execute();
        expect(admins).toHaveLength(1);
      });
      // And a server started afterwards on it comes up and answers.
      const after = await startChild(database);
      expect(await signIn(after.url, ADMIN.email, ADMIN.password)).toBeTruthy();
      await after.kill('SIGTERM');
    } finally {
      await Promise.all(servers.map((s) => s.kill('SIGKILL')));
      await database.drop();
    }
  }, 180_000);
});
