// Crashes: the real server process killed with SIGKILL under a mixed money-moving load, and during
// start-up and migration; restarted on the same database it must come up whole, lose nothing it
// acknowledged, and settle what it did not when retried.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCrashRounds } from './crash-rounds.ts';
import type { Db } from '#server/db/connection.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { migrate, MIGRATIONS } from '#server/db/migrate.ts';
import { ADMIN, engine, freshDatabase, TEST_DATABASE_URL } from './helpers.ts';
import {
  freePort,
  processDatabase,
  seededRandom,
  seedFrom,
  signIn,
  spawnServer,
  stopChildren,
  waitHealthy,
  withDb,
  type ChildServer,
  type ProcessDatabase,
} from './processes.ts';

// A failed test may leave a server process behind: none outlives this file.
afterAll(stopChildren);

/** Tables, columns, indexes and constraints: what a complete migration leaves behind. */
async function schemaOf(db: Db): Promise<string[]> {
  if (engine === 'sqlite') {
    const { rows } = await sql<{
      line: string;
    }>`select type || ' ' || name || ' ' || coalesce(sql, '') as line
      from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(db);
    return rows.map((r) => r.line);
  }
  const { rows } = await sql<{ line: string }>`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable as line
      from information_schema.columns where table_schema = current_schema()
    union all select 'index ' || indexname || ' ' || replace(indexdef, current_schema() || '.', '')
      from pg_indexes where schemaname = current_schema()
    union all select 'constraint ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = current_schema()::regnamespace
    order by line`.execute(db);
  return rows.map((r) => r.line);
}

/** The schema after the first k migrations, for every k (0: only the record table). */
async function referenceSchemas(): Promise<string[][]> {
  const schemas: string[][] = [];
  for (let k = 0; k <= MIGRATIONS.length; k += 1) {
    const fresh = await freshDatabase();
    try {
      await migrate(fresh.handle, MIGRATIONS.slice(0, k));
      schemas.push(await schemaOf(fresh.handle.db));
    } finally {
      await fresh.handle.close();
      await fresh.drop();
    }
  }
  return schemas;
}

/** Resolves when the child has started on the database: opened the SQLite file, or connected. */
function databaseTouched(server: ChildServer, database: ProcessDatabase, appName: string) {
  let done = false;
  const exited = server.exited.then(() => (done = true));
  const file = path.join(database.dataDir, 'sebar.sqlite');
  const pid = server.child.pid!;
  const pgClient = engine === 'postgres' ? new pg.Client(TEST_DATABASE_URL) : null;
  const touched = async (): Promise<boolean> => {
    if (pgClient) {
      const { rowCount } = await pgClient.query(
        'select 1 from pg_stat_activity where application_name = $1',
        [appName],
      );
      return (rowCount ?? 0) > 0;
    }
    try {
      return fs
        .readdirSync(`/proc/${pid}/fd`)
        .some((fd) => fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file);
    } catch {
      return false; // the process is gone or an fd closed while we looked
    }
  };
  return (async () => {
    await pgClient?.connect();
    try {
      while (!done && !(await touched())) await new Promise((r) => setTimeout(r, 1));
    } finally {
      await pgClient?.end();
      void exited;
    }
  })();
}

describe(`crash (${engine})`, () => {
  it('SIGKILL at a random moment under mixed load, 20 rounds: nothing acknowledged lost, retries settle once', async () => {
    const rounds = Number(process.env.CRASH_ROUNDS ?? 20);
    const seed = seedFrom('CRASH_SEED', `crash ${engine}`);
    const report = await runCrashRounds({
      engine,
      rounds,
      seed,
      log: (line) => console.log(`[crash] ${line}`),
    });
    console.log(`[crash] ${engine} report ${JSON.stringify(report)}`);
    expect(report.rounds).toBe(rounds);
    // The kills landed while requests were in flight, so the retry path was exercised.
    expect(report.unacknowledged).toBeGreaterThan(0);
    expect(report.retried).toBeGreaterThan(0);
  }, 900_000);

  it('SIGKILL during image uploads: no file without a row survives the next start', async () => {
    const seed = seedFrom('UPLOAD_KILL_SEED', `upload kill ${engine}`);
    const random = seededRandom(seed);
    const database = await processDatabase();
    const dir = path.join(database.dataDir, 'uploads');
    const rowNames = () =>
      withDb(database, async ({ db }) =>
        (await db.selectFrom('uploads').select('name').execute()).map((row) => row.name).sort(),
      );
    const filesOnDisk = () => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
    try {
      let server = spawnServer(database, await freePort());
      await waitHealthy(server);
      const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
      const png = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#2a6' },
      })
        .png()
        .toBuffer();
      // The admin's QR uploads: no quota, the same path as every upload (file, then row).
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'qr.png');
          await fetch(`${server.url}/api/admin/upload-qr`, {
            method: 'POST',
            headers: { authorization: `Bearer ${admin}` },
            body: form,
          }).catch(() => undefined);
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      await new Promise((r) => setTimeout(r, 200 + Math.floor(random() * 800)));
      await server.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      // An orphan an older crash left; and everything on disk made two hours old, so what this
      // kill left is old enough to be swept too.
      fs.mkdirSync(dir, { recursive: true });
      const planted = `${crypto.randomUUID()}.png`;
      fs.writeFileSync(path.join(dir, planted), png);
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      for (const name of filesOnDisk())
        fs.utimesSync(path.join(dir, name), twoHoursAgo, twoHoursAgo);
      const rows = await rowNames();
      const orphans = filesOnDisk().filter((name) => !rows.includes(name));
      expect(orphans).toContain(planted);
      // Every row names a whole file: the file is written (and synced) before its row.
      expect(rows.filter((name) => !filesOnDisk().includes(name))).toEqual([]);

      server = spawnServer(database, await freePort());
      await waitHealthy(server);
      await vi.waitFor(async () => expect(filesOnDisk()).toEqual(await rowNames()), {
        timeout: 15_000,
        interval: 100,
      });
      console.log(
        `[upload kill ${engine}] ${rows.length} uploads stored, ${orphans.length - 1} files the kill left without a row, all swept at start`,
      );
      await server.kill('SIGKILL');
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('SIGKILL during start-up and migration never leaves a half-migrated database', async () => {
    const seed = seedFrom('MIGRATION_KILL_SEED', `migration kill ${engine}`);
    const random = seededRandom(seed);
    const references = await referenceSchemas();
    const complete = references.at(-1)!;
    // Calibrated on this machine under its present load: from the first touch of a new database
    // to healthy (migrations, first admin, listen); the kills are spread over that window.
    const calibration = await processDatabase();
    let window: number;
    try {
      const appName = `sebar-calibrate-${crypto.randomBytes(4).toString('hex')}`;
      const server = spawnServer(calibration, await freePort(), { PGAPPNAME: appName });
      await databaseTouched(server, calibration, appName);
      const touchedAt = Date.now();
      await waitHealthy(server);
      window = Date.now() - touchedAt;
      await server.kill('SIGKILL');
    } finally {
      await calibration.drop();
    }
    // How many kills left the database with 0, 1, ... migrations recorded (-1: not even the record table).
    const seen: Record<string, number> = {};
    let kills = 0;
    for (let chain = 0; chain < 4; chain += 1) {
      const database = await processDatabase();
      try {
        for (let attempt = 0; attempt < 3; attempt += 1) {
          const appName = `sebar-kill-${crypto.randomBytes(4).toString('hex')}`;
          const server = spawnServer(database, await freePort(), { PGAPPNAME: appName });
          await databaseTouched(server, database, appName);
          await new Promise((r) => setTimeout(r, Math.floor(random() * window)));
          await server.kill('SIGKILL');
          kills += 1;
          const recorded = await withDb(database, async ({ db }) => {
            const schema = await schemaOf(db);
            if (schema.length === 0) return -1;
            const done = await db.selectFrom('sebar_migrations').select('name').execute();
            // Each recorded migration is there whole, and nothing of an unrecorded one.
            const names = done.map((d) => d.name).sort();
            expect(names).toEqual(MIGRATIONS.slice(0, names.length).map(([name]) => name));
            expect(schema).toEqual(references[names.length]);
            return names.length;
          });
          seen[recorded] = (seen[recorded] ?? 0) + 1;
          if (recorded === MIGRATIONS.length) break;
        }
        // Started normally on what the kills left: it comes up whole.
        const server = spawnServer(database, await freePort());
        await waitHealthy(server);
        await signIn(server.url, ADMIN.email, ADMIN.password);
        await withDb(database, async ({ db }) => {
          expect(await schemaOf(db)).toEqual(complete);
          expect(await checkLedger(db)).toEqual([]);
        });
        await server.kill('SIGKILL');
      } finally {
        await database.drop();
      }
    }
    console.log(
      `[migration kill ${engine}] ${kills} kills within ${window} ms of the first touch; migrations recorded after each: ${JSON.stringify(seen)}`,
    );
    expect(kills).toBeGreaterThanOrEqual(4);
  }, 300_000);
});
