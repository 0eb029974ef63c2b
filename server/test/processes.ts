// Tooling for whole-process tests: the real server as a child process on a database of the
// engine under test, HTTP on fresh sockets (bursts released together), and a seeded generator.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bundleServer } from '#scripts/build-server.ts';
import type { DbHandle, Engine } from '#server/db/connection.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { openSqlite } from '#server/db/sqlite.ts';
import { ADMIN, engine as engineUnderTest, TEST_DATABASE_URL } from './helpers.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Fixed so tokens signed before a crash still work after the restart. */
export const JWT_SECRET = 'sebar-process-test-secret-0123456789abcdef';

/** mulberry32: small, fast and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed from `name` in the environment, or a new one; printed so a failure can be replayed. */
export function seedFrom(name: string, label: string): number {
  const given = Number(process.env[name]);
  const seed = Number.isInteger(given) && given > 0 ? given : crypto.randomInt(1, 2 ** 31 - 1);
  console.log(`[${label}] seed ${seed} (replay with ${name}=${seed})`);
  return seed;
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/**
 * Ports handed out by `freePort`: below the kernel's ephemeral range (32768 and up), so no
 * outgoing connection can take one between the check and the server's listen, in a block of its
 * own for each vitest worker, so two test files running at once never pick the same one.
 */
const PORT_BLOCK = 400;
const firstPort = 20_000 + (Number(process.env.VITEST_POOL_ID ?? 0) % 30) * PORT_BLOCK;
let nextPort = 0;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on, never the same one twice in a row in this process. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_BLOCK; tries += 1) {
    const port = firstPort + nextPort;
    nextPort = (nextPort + 1) % PORT_BLOCK;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port from ${firstPort} to ${firstPort + PORT_BLOCK - 1}`);
}

/** A database for server processes: a fresh SQLite directory or a fresh PostgreSQL schema. */
export interface ProcessDatabase {
  engine: Engine;
  dataDir: string;
  /** Environment a server process needs to use it. */
  env: Record<string, string>;
  /** A connection of the test's own, for checks. */
  open(): DbHandle;
  drop(): Promise<void>;
}

async function pgAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function processDatabase(engine: Engine = engineUnderTest): Promise<ProcessDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-proc-'));
  if (engine === 'sqlite') {
    return {
      engine,
      dataDir,
      env: { SEBAR_DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_SCHEMA: '' },
      open: () => openSqlite(path.join(dataDir, 'sebar.sqlite')),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `p_${crypto.randomBytes(6).toString('hex')}`;
  await pgAdmin((client) => client.query(`create schema ${schema}`));
  return {
    engine,
    dataDir,
    env: { SEBAR_DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema },
    open: () => openPostgres(TEST_DATABASE_URL, schema, 2),
    async drop() {
      await pgAdmin((client) => client.query(`drop schema if exists ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `check` on a connection of the test's own, then closes it. */
export async function withDb<T>(
  database: ProcessDatabase,
  check: (handle: DbHandle) => Promise<T>,
): Promise<T> {
  const handle = database.open();
  try {
    return await check(handle);
  } finally {
    await handle.close();
  }
}

export interface ChildServer {
  url: string;
  port: number;
  child: ChildProcess;
  exited: Promise<void>;
  /** What the process printed (stdout and stderr). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  if (bundle) fs.rmSync(bundle, { force: true });
});

/** Kills every server process this module started that is still running (a failed test's). */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          if (!child.kill('SIGKILL')) resolve();
        }),
    ),
  );
}

let bundle: string | undefined;
/**
 * The production bundle of the current source, built once per test file inside the repository
 * (so its native addons resolve from node_modules), as `npm run build` makes dist/server/main.js.
 */
function serverBundle(): string {
  bundle ??= bundleServer(path.join(REPO_ROOT, '.tmp', 'test-server', `main-${process.pid}.js`));
  return bundle;
}

/** How a server process is started, given the path of the production bundle. */
export type Launch = (bundle: string) => {
  command: string;
  args: string[];
  cwd: string;
  /** In a process group of its own, as a terminal starts a command (signal it with -pid). */
  group?: boolean;
};

/** The production server (`node dist/server/main.js`) as an operator would start it. */
const nodeBundle: Launch = (bundle) => ({
  command: process.execPath,
  args: [bundle],
  cwd: REPO_ROOT,
});

/** `npm run worker`, as its script runs it: the delivery engine alone (a `Launch`). */
export const workerProcess: Launch = () => ({
  command: process.execPath,
  args: ['--import', 'tsx', 'server/worker.ts'],
  cwd: REPO_ROOT,
});

/**
 * Reads every 100 ms until `done` holds for what was read, and answers that; after `timeoutMs`
 * throws, naming `what` and showing the last read.
 */
export async function readUntil<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const last = typeof value === 'boolean' ? '' : `; last: ${JSON.stringify(value)}`;
      throw new Error(`timed out waiting for ${what}${last.slice(0, 2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  await readUntil(check, Boolean, timeoutMs, what);
}

/** Spawns the production server (by default `node dist/server/main.js`, or as `launch` says). */
export function spawnServer(
  database: ProcessDatabase,
  port: number,
  env: Record<string, string> = {},
  launch: Launch = nodeBundle,
): ChildServer {
  const { command, args, cwd, group = false } = launch(serverBundle());
  const child = spawn(command, args, {
    cwd,
    detached: group,
    env: {
      ...process.env,
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEBAR_ADMIN_EMAIL: ADMIN.email,
      SEBAR_ADMIN_PASSWORD: ADMIN.password,
      SEBAR_JWT_SECRET: JWT_SECRET,
      SEBAR_USER_RATE_LIMIT: '0',
      // Race and crash loads send many requests of one client at once (see in-flight.test.ts).
      SEBAR_CLIENT_IN_FLIGHT: '0',
      SEBAR_LOGIN_MAX_PER_IP: '100000',
      SEBAR_CLIENT_DIR: path.join(database.dataDir, 'no-client'),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    exited,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Waits until /api/health answers 200; fails if the process exits first. */
export async function waitHealthy(server: ChildServer, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before it was healthy:\n${server.output()}`);
    const answer = await send({ url: server.url, method: 'GET', path: '/api/health' });
    if (answer.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

export async function startChild(
  database: ProcessDatabase,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const server = spawnServer(database, await freePort(), env);
  await waitHealthy(server);
  return server;
}

export interface RequestSpec {
  url: string;
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** status 0: no answer came back (refused, reset, timed out): the request is unacknowledged. */
export interface HttpAnswer {
  status: number;

  body: any;
  text: string;
  error?: string;
}

interface Prepared {
  request: http.ClientRequest;
  payload: Buffer | undefined;
  connected: Promise<void>;
  answer: Promise<HttpAnswer>;
}

/** Opens a fresh socket (no keep-alive, no pooling) for one request, without sending it yet. */
function prepare(spec: RequestSpec, timeoutMs: number): Prepared {
  const target = new URL(spec.path, spec.url);
  const payload = spec.body === undefined ? undefined : Buffer.from(JSON.stringify(spec.body));
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.token) headers.authorization = `Bearer ${spec.token}`;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const request = http.request({
    host: target.hostname,
    port: target.port,
    path: target.pathname + target.search,
    method: spec.method,
    headers,
    agent: false,
    timeout: timeoutMs,
  });
  let markConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (markConnected = resolve));
  request.once('socket', (socket) => {
    if (!socket.connecting) markConnected();
    else socket.once('connect', markConnected);
  });
  const answer = new Promise<HttpAnswer>((resolve) => {
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', (error: NodeJS.ErrnoException) => {
      markConnected();
      resolve({ status: 0, body: null, text: '', error: error.code ?? error.message });
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: 0, body: null, text: '', error: error.code ?? error.message }),
      );
      response.once('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, body, text });
      });
    });
  });
  return { request, payload, connected, answer };
}

/** One request on its own fresh socket. */
export async function send(spec: RequestSpec, timeoutMs = 60_000): Promise<HttpAnswer> {
  const prepared = prepare(spec, timeoutMs);
  prepared.request.end(prepared.payload);
  return prepared.answer;
}

/**
 * Many requests released together: every socket is connected first (the barrier), then every
 * request is written in the same tick, so the server sees them all at once.
 */
export async function burst(specs: RequestSpec[], timeoutMs = 120_000): Promise<HttpAnswer[]> {
  const prepared = specs.map((spec) => prepare(spec, timeoutMs));
  await Promise.all(prepared.map((p) => p.connected));
  for (const p of prepared) p.request.end(p.payload);
  return Promise.all(prepared.map((p) => p.answer));
}

/** How many answers had each status, e.g. {200: 1, 409: 9}. */
export function statusCounts(answers: readonly HttpAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** A call that must succeed; throws unless it answers 2xx, else answers the body. */
export async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const answer = await send({ url, method, path, token, body });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** Signs in through the API; throws unless it answers 200. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const answer = await send({
    url,
    method: 'POST',
    path: '/api/auth/login',
    body: { email, password },
  });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
  return answer.body.access_token as string;
}

export interface ClientAccount {
  id: string;
  username: string;
  email: string;
  token: string;
}

/** Creates a client through the admin API, signs it in and sets its balance (an adjustment). */
export async function makeClient(
  url: string,
  adminToken: string,
  points: number,
): Promise<ClientAccount> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const username = `klien-${suffix}`;
  const email = `klien-${suffix}@sebar.test`;
  const password = 'client-rahasia';
  const created = await send({
    url,
    method: 'POST',
    path: '/api/admin/users',
    token: adminToken,
    body: { username, email, password, role: 'client' },
  });
  if (created.status !== 201) throw new Error(`create client: ${created.status} ${created.text}`);
  const account = { id: created.body.id as string, username, email, token: '' };
  account.token = await signIn(url, email, password);
  if (points > 0) await setPoints(url, adminToken, account, points, 200);
  return account;
}

/** The admin's balance edit; `expect` makes it throw on another status. */
export async function setPoints(
  url: string,
  adminToken: string,
  account: Pick<ClientAccount, 'id' | 'username' | 'email'>,
  points: number,
  expect?: number,
): Promise<HttpAnswer> {
  const answer = await send(balanceEdit(url, adminToken, account, points));
  if (expect !== undefined && answer.status !== expect)
    throw new Error(`set points: ${answer.status} ${answer.text}`);
  return answer;
}

export function balanceEdit(
  url: string,
  adminToken: string,
  account: Pick<ClientAccount, 'id' | 'username' | 'email'>,
  points: number,
): RequestSpec {
  return {
    url,
    method: 'PUT',
    path: `/api/admin/users/${account.id}`,
    token: adminToken,
    body: { username: account.username, email: account.email, points, is_active: true },
  };
}

/** One pricing tier covering every top-up size at Rp100 a point. */
export const PRICE_PER_POINT = 100;
export async function addPricing(url: string, adminToken: string): Promise<void> {
  const answer = await send({
    url,
    method: 'POST',
    path: '/api/admin/pricing',
    token: adminToken,
    body: {
      tier_name: 'Semua',
      min_points: 1,
      max_points: 1_000_000,
      price_per_point: PRICE_PER_POINT,
    },
  });
  if (answer.status !== 201) throw new Error(`pricing: ${answer.status} ${answer.text}`);
}

/** `count` distinct valid numbers starting at `from`. */
export function phoneNumbers(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `0812${String(from + i).padStart(8, '0')}`);
}
