// `npm run bench`: Sebar's figures on SQLite and PostgreSQL at production size, each as a ratio
// to a baseline measured in the same run, printed as a table and saved to bench/results.json.
// Env: SCALE (1 = production size), BENCH_ENGINES (sqlite,postgres), BENCH_SECONDS (10),
// BENCH_SAMPLES (300), BENCH_ROUNDS (5), BENCH_BROWSER (1; 0 skips the browser figures),
// BENCH_KEEP (keep the PostgreSQL schema), BENCH_DATABASE_URL, BENCH_PIN (1; 0 leaves the
// processes unpinned),
// BENCH_PROF (a directory: the server under test writes a `--cpu-prof` profile there at exit),
// BENCH_ONLY=delivery (only the delivery and gateway figures of bench/delivery.ts and
// bench/gateway.ts), =load (only /api/auth/me, blast creation and the RSS under their load) or
// =browser (only bench/browser.ts), saved to .tmp/bench/results-partial.json instead of
// bench/results.json.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadSqlite } from '#server/db/sqlite-driver.ts';
import pg from 'pg';
import { openSqlite } from '#server/db/sqlite.ts';
import { migrate } from '#server/db/migrate.ts';
import { measureBrowser } from './browser.ts';
import { benchDelivery, type DeliveryContext } from './delivery.ts';
import { benchGateway, GATEWAY_SECOND_MS } from './gateway.ts';
import { freePort } from '#server/test/processes.ts';
import {
  BENCH_ADMIN,
  CLIENT_PASSWORD,
  clientEmail,
  generate,
  GENERATOR_VERSION,
  type GenerateResult,
} from './generate.ts';
import type { RawInput } from './raw-blast.ts';
import { latencies, median, type Figure } from './stats.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCALE = Number(process.env.SCALE ?? 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Rounds over every read before the first latency figure: the figures are a warm server's. */
const WARM_ROUNDS = 25;
const PROFILE_DIR = process.env.BENCH_PROF;
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_SCHEMA = 'bench_run';
const ONLY = process.env.BENCH_ONLY;
const PARTS = ['delivery', 'load', 'browser'];
if (ONLY !== undefined && !PARTS.includes(ONLY)) throw new Error(`BENCH_ONLY=${ONLY}: ${PARTS}`);
/** Whether this run measures a part: every part, unless BENCH_ONLY names one. */
const measures = (part: 'pages' | 'delivery' | 'load' | 'browser') =>
  ONLY === undefined || ONLY === part;
const WORK = path.join(ROOT, '.tmp', 'bench');
const SERVER_BUNDLE = path.join(WORK, 'server', 'main.js');
const SERVER_LOG = path.join(WORK, 'server.log');
/** The `NAME=value` assignments that lead package.json's serve script (which npm start runs). */
function serveEnv(): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  const env: Record<string, string> = {};
  let script = pkg.scripts.serve;
  for (let m; (m = /^(\w+)=(\S+)\s+/.exec(script)); script = script.slice(m[0].length)) {
    env[m[1]!] = m[2]!;
  }
  return env;
}
/** The command as run: SCALE and the BENCH_ settings that were given. */
const COMMAND = `${[
  `SCALE=${SCALE}`,
  ...Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') && name !== 'BENCH_DATABASE_URL')
    .sort()
    .map(([name, value]) => `${name}=${value}`),
].join(' ')} npm run bench`;
const JWT_SECRET = 'bench-jwt-secret-0123456789abcdef0123456789';
const CONNECTIONS = 50;
/** One round of a throughput figure or of its baseline. */
const ROUND_SECONDS = Math.max(1, Math.round(SECONDS / 2));
const BLAST_CLIENTS = 50;

type Engine = 'sqlite' | 'postgres';

// The server under test and each baseline run on the last CPU, and the load (this process, with
// autocannon) on the others: they never compete for one core nor migrate between cores. Unpinned
// on this 2-core machine, a server sharing both cores with autocannon lost about 40% of its
// throughput to scheduling alone, and from run to run by different amounts. BENCH_PIN=0: unpinned.
const CPUS = os.cpus().length;
const PIN = process.env.BENCH_PIN !== '0' && CPUS >= 2 && spawnSync('taskset', ['-V']).status === 0;
const SERVER_CPU = String(CPUS - 1);

/** A Node child on the server's CPU. */
function spawnNode(args: string[], options: SpawnOptions): ChildProcess {
  return PIN
    ? spawn('taskset', ['-c', SERVER_CPU, process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

/** This process (the load) on every CPU but the server's, or again on all of them. */
function pinLoad(pinned: boolean) {
  if (!PIN) return;
  const cpus = pinned ? `0-${CPUS - 2}` : `0-${CPUS - 1}`;
  spawnSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}

const figures: Figure[] = [];
const log = (message: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

function record(figure: Figure) {
  figures.push(figure);
  const ratio =
    figure.ratio === null ? '' : ` (${(figure.ratio * 100).toFixed(1)}% of ${figure.baseline})`;
  log(`${figure.figure} [${figure.engine}]: ${figure.value ?? 'n/a'} ${figure.unit}${ratio}`);
}

/** A throughput figure measured by `alternate`, against its target share of the baseline. */
function recordRatio(
  figure: string,
  engine: Engine,
  measured: Awaited<ReturnType<typeof alternate>>,
  unit: string,
  min: number,
  baselineName: string,
  baselineNote: string,
) {
  record({
    figure,
    engine,
    value: measured.value,
    unit: `${unit} (${measured.rounds})`,
    baseline: measured.baseline,
    ratio: measured.ratio,
    target: `>= ${min * 100}% of ${baselineName}`,
    met: measured.ratio >= min,
    note: `baseline: ${baselineNote}. ${measured.cpu}`,
  });
  log(`  ${measured.cpu}`);
}

// ---------------------------------------------------------------------------------------------
// Processes, HTTP and measurements

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Samples a process's RSS until stopped; answers the highest value seen. */
function sampleRss(pid: number) {
  let max = rssMb(pid);
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssMb(pid));
    } catch {
      // the process ended
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return max;
  };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  body: string;
}

function request(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      new URL(url, base),
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function json<T>(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const answer = await request(base, method, url, token, body);
  if (answer.status >= 300) {
    throw new Error(`${method} ${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  }
  return JSON.parse(answer.body) as T;
}

/** Sequential requests, one at a time: latency in ms at p50, p95, p99. */
async function latency(
  base: string,
  make: (i: number) => { method: string; url: string; token: string; body?: unknown },
  samples: number,
  warmup = 20,
) {
  const times: number[] = [];
  for (let i = 0; i < warmup + samples; i += 1) {
    const r = make(i);
    const started = performance.now();
    const answer = await request(base, r.method, r.url, r.token, r.body);
    const ms = performance.now() - started;
    if (answer.status >= 300) {
      throw new Error(
        `${r.method} ${r.url} answered ${answer.status}: ${answer.body.slice(0, 300)}`,
      );
    }
    if (i >= warmup) times.push(ms);
  }
  return latencies(times);
}

async function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `autocannon ${options.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`,
    );
  }
  return result;
}

/** Requests per second over the whole run (total answered / seconds). */
const perSecond = (result: autocannon.Result) =>
  Math.round(result.requests.total / result.duration);

interface Server {
  child: ChildProcess;
  base: string;
  coldMs: number;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  // The production server, as `npm start` runs it: the bundle built in main(). Its log goes to a
  // file, as npm start's would (LOG_LEVEL's default, info, writes a line per request).
  const log = fs.openSync(SERVER_LOG, 'w');
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawnNode([...profile, SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...serveEnv(),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // The per-session limiter runs as in production (it costs about 12% of a /api/auth/me
      // answer, counted with callgrind), with a limit no run reaches.
      SEBAR_USER_RATE_LIMIT: '1000000000',
      // The bound on a user's expensive requests in flight is counted as in production, with a
      // bound no run reaches: requests go to the 50 senders in turn, not one connection each.
      SEBAR_CLIENT_IN_FLIGHT: '1000000',
      SEBAR_JWT_SECRET: JWT_SECRET,
      SEBAR_ADMIN_EMAIL: BENCH_ADMIN.email,
      SEBAR_ADMIN_PASSWORD: BENCH_ADMIN.password,
      SEBAR_CLIENT_DIR: path.join(WORK, 'client'),
      SEBAR_SECRET_KEY: 'bench-secret-key-0123456789abcdef',
      // The delivery figures send to distinct numbers as fast as allowed: no pair-rate wait.
      SEBAR_DELIVERY_RECIPIENT_GAP_MS: '0',
      // The gateway's day is compressed (bench/gateway.ts converts its figures back).
      SEBAR_DELIVERY_GATEWAY_SECOND_MS: String(GATEWAY_SECOND_MS),
    },
    stdio: ['ignore', log, 'inherit'],
  });
  fs.closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}; its log: ${SERVER_LOG}`);
    }
    try {
      const answer = await fetch(`${base}/api/health`);
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 600_000) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 5));
  }
  return { child, base, coldMs: Math.round(performance.now() - started) };
}

/** A script run to its end as a child, on the server's CPU or beside the load: its output. */
function runChild(
  script: string,
  env: Record<string, string>,
  cpu: 'server' | 'load' = 'server',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', script];
    const options: SpawnOptions = {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    };
    // A child inherits this process's CPUs: the load's.
    const child =
      cpu === 'server' ? spawnNode(args, options) : spawn(process.execPath, args, options);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

/** The bare Fastify route (the framework's limit on this machine), listening until stopped. */
async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnNode(['--import', 'tsx', 'bench/bare-server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    child.stdout!.once('data', (c: Buffer) =>
      resolve((JSON.parse(c.toString()) as { port: number }).port),
    );
  });
  const url = `http://127.0.0.1:${port}/bare`;
  await cannon({ url, duration: 2 });
  return { url, child };
}

/** Each CPU's busy and total time so far, in clock ticks (Linux; empty elsewhere). */
function cpuTimes(): { busy: number; total: number }[] {
  if (!fs.existsSync('/proc/stat')) return [];
  return fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d/.test(line))
    .map((line) => {
      const [user, nice, system, idle, iowait, ...rest] = line.split(/\s+/).slice(1).map(Number);
      const busy = user! + nice! + system! + rest.reduce((a, b) => a + b, 0);
      return { busy, total: busy + idle! + iowait! };
    });
}

/** A process's CPU time so far, in clock ticks (user and system; 0 without one to read). */
function processTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
const TICK_US = 10_000; // USER_HZ is 100 on Linux

/**
 * One round of a throughput: its rate, and where the CPU time went while it ran: each CPU's busy
 * share, and the microseconds per answer of the load (this process) and of the process measured.
 * A ratio is only the server's when the server's CPU was the one saturated, not the load's.
 */
async function measured(run: () => Promise<number>, pid: number | undefined) {
  const [cpus, load, server] = [cpuTimes(), process.cpuUsage(), processTicks(pid)];
  const rate = await run();
  const [used, serverUsed] = [process.cpuUsage(load), processTicks(pid) - server];
  const answers = Math.max(1, rate * ROUND_SECONDS);
  const busy = cpuTimes()
    .map((c, i) => `${Math.round(((c.busy - cpus[i]!.busy) / (c.total - cpus[i]!.total)) * 100)}%`)
    .join('/');
  const cpu = `CPUs ${busy} busy, load ${((used.user + used.system) / answers).toFixed(1)} µs${
    pid ? `, server ${((serverUsed * TICK_US) / answers).toFixed(1)} µs` : ''
  } per answer`;
  return { rate, cpu };
}

/**
 * A figure and its baseline measured in turns, ROUNDS times each, so that a change in what else
 * the shared machine is doing weighs on both alike; the median of the rounds' ratios is reported.
 * `pids`: the processes that answer the baseline and the figure, whose CPU per answer is noted.
 */
async function alternate(
  baseline: () => Promise<number>,
  figure: () => Promise<number>,
  pids: { baseline?: number; figure?: number } = {},
) {
  const rounds: { baseline: number; value: number; cpu: string }[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const base = await measured(baseline, pids.baseline);
    const value = await measured(figure, pids.figure);
    rounds.push({
      baseline: base.rate,
      value: value.rate,
      cpu: `round ${i + 1}: baseline ${base.cpu}; figure ${value.cpu}`,
    });
  }
  const ratios = rounds.map((r) => r.value / r.baseline);
  return {
    value: median(rounds.map((r) => r.value)),
    baseline: median(rounds.map((r) => r.baseline)),
    ratio: median(ratios),
    rounds: `median of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s each; rounds: ${rounds
      .map((r, i) => `${r.value}/${r.baseline} = ${(ratios[i]! * 100).toFixed(1)}%`)
      .join(', ')}`,
    cpu: rounds.map((r) => r.cpu).join('. '),
  };
}

// ---------------------------------------------------------------------------------------------
// The data set

interface Prepared {
  env: Record<string, string>;
  generated: GenerateResult;
  file?: string;
  drop(): Promise<void>;
}

async function prepareSqlite(): Promise<Prepared> {
  const cacheDir = path.join(WORK, `sqlite-scale-${SCALE}-v${GENERATOR_VERSION}`);
  const cacheFile = path.join(cacheDir, 'sebar.sqlite');
  const marker = path.join(cacheDir, 'generated.json');
  if (!fs.existsSync(marker)) {
    log(`generating the SQLite data set at scale ${SCALE} into ${cacheDir}`);
    const generated = await generate({ engine: 'sqlite', file: cacheFile }, SCALE, log);
    fs.writeFileSync(marker, JSON.stringify(generated));
  } else log(`reusing the generated SQLite data set ${cacheDir}`);
  const generated = JSON.parse(fs.readFileSync(marker, 'utf8')) as GenerateResult;
  // Migrations added since the cache was made are applied to it once, not timed.
  const handle = openSqlite(cacheFile);
  const applied = await migrate(handle);
  await handle.close();
  if (applied.length) log(`applied ${applied.join(', ')} to the cached data set`);
  const raw = new (loadSqlite())(cacheFile);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();

  const dataDir = path.join(WORK, 'run-sqlite');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'sebar.sqlite');
  fs.copyFileSync(cacheFile, file);
  return {
    env: { SEBAR_DATA_DIR: dataDir },
    generated,
    file,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function preparePostgres(): Promise<Prepared> {
  log(`generating the PostgreSQL data set at scale ${SCALE} in schema ${PG_SCHEMA}`);
  const generated = await generate(
    { engine: 'postgres', url: PG_URL, schema: PG_SCHEMA },
    SCALE,
    log,
  );
  const dataDir = path.join(WORK, 'run-postgres');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    env: { SEBAR_DATA_DIR: dataDir, DATABASE_URL: PG_URL, DATABASE_SCHEMA: PG_SCHEMA },
    generated,
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (process.env.BENCH_KEEP) return;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema if exists ${PG_SCHEMA} cascade`);
      await client.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One engine

interface LoginAnswer {
  access_token: string;
  user: { id: string; username: string; email: string };
}
interface PageAnswer {
  items: { id: string; total_numbers?: number }[];
  total: number;
}

/** 500 distinct numbers in every format SPEC allows, so normalisation has work to do. */
function blastNumbers(): { entered: string[]; normal: string[] } {
  const entered: string[] = [];
  const normal: string[] = [];
  for (let i = 0; i < 500; i += 1) {
    const digits = `8${String(1_200_000_000 + i * 7919).slice(0, 10)}`;
    const forms = [`0${digits}`, `+62 ${digits}`, `62-${digits}`, digits];
    entered.push(forms[i % forms.length]!);
    normal.push(`62${digits}`);
  }
  return { entered, normal };
}

const MESSAGE =
  'Halo! Promo spesial minggu ini: diskon 20% untuk semua produk. Kunjungi toko kami sekarang.';

async function benchEngine(engine: Engine, browser: boolean) {
  const prepared = engine === 'sqlite' ? await prepareSqlite() : await preparePostgres();
  const { generated } = prepared;
  record({
    figure: 'data set (blasts / per-number rows / ledger / top-ups / clients)',
    engine,
    value: generated.sizes.numbers,
    unit: `per-number rows (${generated.sizes.blasts} blasts, ${generated.sizes.ledger} ledger entries, ${generated.sizes.requests} top-ups, ${generated.sizes.clients} clients; generated in ${generated.seconds.toFixed(0)} s, ledger check ${generated.checkSeconds.toFixed(0)} s)`,
    baseline: null,
    ratio: null,
    target: `scale ${SCALE}`,
    met: null,
  });

  // The first start may apply migrations; the second is the cold start on an existing database.
  pinLoad(true);
  let server = await startServer(prepared.env);
  log(`first start ${server.coldMs} ms`);
  await stop(server.child);
  server = await startServer(prepared.env);
  const pid = server.child.pid!;
  record({
    figure: 'cold start to first /api/health answer',
    engine,
    value: server.coldMs,
    unit: 'ms',
    baseline: null,
    ratio: null,
    target: '< 1000 ms',
    met: server.coldMs < 1000,
  });
  await new Promise((r) => setTimeout(r, 2000));
  record({
    figure: 'server RSS at rest',
    engine,
    value: rssMb(pid),
    unit: 'MB',
    baseline: null,
    ratio: null,
    target: '-',
    met: null,
  });

  try {
    const { base } = server;
    const admin = await json<LoginAnswer>(base, 'POST', '/api/auth/login', undefined, BENCH_ADMIN);
    const big = await json<LoginAnswer>(base, 'POST', '/api/auth/login', undefined, {
      email: clientEmail(0),
      password: CLIENT_PASSWORD,
    });
    const at = admin.access_token;

    // --- Latency of lists, dashboards and a detail on the full data set
    if (measures('pages')) {
      const lastPage = async (url: string, token: string, size: number) => {
        const page = await json<PageAnswer>(
          base,
          'GET',
          `${url}${url.includes('?') ? '&' : '?'}page=1&page_size=${size}`,
          token,
        );
        return Math.max(1, Math.ceil(page.total / size));
      };
      const lists: [string, string, string, number][] = [
        ['admin blast results', '/api/admin/blast-requests', at, 5],
        ['admin top-up requests', '/api/admin/point-requests', at, 15],
        ['admin client list', '/api/admin/users', at, 5],
        [
          "a client's point history (largest client)",
          '/api/client/transactions',
          big.access_token,
          5,
        ],
        [
          "a client's blast results (largest client)",
          '/api/client/blast-requests',
          big.access_token,
          5,
        ],
      ];
      // A last page is paired with its first page: it must be as fast (no OFFSET scan). A middle
      // page still needs an OFFSET (pages are numbered), over an index: the list target alone.
      const reads: { name: string; url: string; token: string; first?: string }[] = [];
      for (const [name, url, token, size] of lists) {
        const last = await lastPage(url, token, size);
        reads.push({ name: `${name}: first page`, url: `${url}?page=1&page_size=${size}`, token });
        const middle = Math.ceil(last / 2);
        reads.push({
          name: `${name}: middle page (${middle})`,
          url: `${url}?page=${middle}&page_size=${size}`,
          token,
        });
        reads.push({
          name: `${name}: last page (${last})`,
          url: `${url}?page=${last}&page_size=${size}`,
          token,
          first: `${name}: first page`,
        });
      }
      reads.push({ name: 'admin dashboard', url: '/api/admin/dashboard', token: at });
      reads.push({
        name: 'client dashboard (largest client)',
        url: '/api/client/dashboard',
        token: big.access_token,
      });
      reads.push({
        name: "one blast's detail with 500 numbers",
        url: `/api/admin/blast-requests/${generated.bigBlastId}`,
        token: at,
      });
      // The server has just started: V8 compiles its hot paths over its first few hundred requests,
      // and the pool's connections prepare their statements. The figures are a running server's, so
      // every read is asked for a few times over before any is measured (cold start is its own figure).
      for (let round = 0; round < WARM_ROUNDS; round += 1) {
        for (const { url, token } of reads) await json(base, 'GET', url, token);
      }
      const p50s = new Map<string, number>();
      for (const { name, url, token, first } of reads) {
        const l = await latency(base, () => ({ method: 'GET', url, token }), SAMPLES);
        p50s.set(name, l.p50);
        const firstP50 = first ? p50s.get(first)! : null;
        // "As fast as the first": p50 within 1.5x (plus 0.5 ms of noise) of the first page's.
        const asFast = firstP50 === null || l.p50 <= firstP50 * 1.5 + 0.5;
        record({
          figure: `${name}: p50 / p95 / p99`,
          engine,
          value: l.p95,
          unit: `ms p95 (p50 ${l.p50}, p99 ${l.p99})`,
          baseline: firstP50,
          ratio: firstP50 === null ? null : l.p50 / firstP50,
          target: first ? 'p95 < 10 ms; p50 <= 1.5x first page' : 'p95 < 10 ms',
          met: l.p95 < 10 && asFast,
          note: first
            ? 'baseline and ratio: p50 of the first page, and last / first p50'
            : undefined,
        });
      }
    }

    // --- Clients who send blasts, signed in (their tokens also load /api/auth/me)
    const senders: LoginAnswer[] = [];
    for (let i = 1; i <= BLAST_CLIENTS && i < generated.sizes.clients; i += 1) {
      const sender = await json<LoginAnswer>(base, 'POST', '/api/auth/login', undefined, {
        email: clientEmail(i),
        password: CLIENT_PASSWORD,
      });
      // A real balance change through the admin API (an adjustment entry), enough for the run.
      await json(base, 'PUT', `/api/admin/users/${sender.user.id}`, at, {
        username: sender.user.username,
        email: sender.user.email,
        points: 100_000_000,
        is_active: true,
      });
      senders.push(sender);
    }
    if (measures('load')) {
      let turn = 0;
      const nextToken = () => `Bearer ${senders[turn++ % senders.length]!.access_token}`;

      // --- /api/auth/me against the bare framework route, as 50 users' browsers send it: each
      // connection is one sender's, with its token (one user's token on every connection would let
      // the server read one row for all). Its request is built once, as the bare route's is: a
      // request built anew for each call cost autocannon about twice the bare route's CPU per
      // answer, on the core PostgreSQL shares with it, and so slowed the figure it measured.
      const bare = await startBare();
      const stopRss = sampleRss(pid);
      let connection = 0;
      const meLoad = (duration: number) =>
        cannon({
          url: `${base}/api/auth/me`,
          duration,
          setupClient: (client) =>
            client.setHeaders({
              authorization: `Bearer ${senders[connection++ % senders.length]!.access_token}`,
            }),
        });
      await meLoad(2);
      const me = await alternate(
        async () => perSecond(await cannon({ url: bare.url, duration: ROUND_SECONDS })),
        async () => perSecond(await meLoad(ROUND_SECONDS)),
        { baseline: bare.child.pid, figure: pid },
      );
      await stop(bare.child);
      recordRatio(
        'GET /api/auth/me throughput',
        engine,
        me,
        'req/s',
        0.35,
        'the bare route',
        'bare Fastify route answering {} (bench/bare-server.ts)',
      );

      // --- Blast creation against the raw driver
      const numbers = blastNumbers();
      const sample = await json<object>(
        base,
        'POST',
        '/api/client/blast-requests',
        senders[0]!.access_token,
        {
          message: MESSAGE,
          target_numbers: numbers.entered,
        },
      );
      const raw: RawInput = {
        engine,
        file: prepared.file,
        url: PG_URL,
        schema: PG_SCHEMA,
        userIds: senders.map((s) => s.user.id),
        numbers: numbers.normal,
        message: MESSAGE,
        body: JSON.stringify(sample),
        seconds: ROUND_SECONDS,
        concurrency: CONNECTIONS,
      };
      let keys = 0;
      const body = JSON.stringify({ message: MESSAGE, target_numbers: numbers.entered });
      const blastLoad = (duration: number) =>
        cannon({
          url: `${base}/api/client/blast-requests`,
          duration,
          requests: [
            {
              method: 'POST',
              setupRequest: (req) => ({
                ...req,
                headers: {
                  'content-type': 'application/json',
                  authorization: nextToken(),
                  'idempotency-key': `bench-${process.pid}-${keys++}`,
                },
                body,
              }),
            },
          ],
        });
      await blastLoad(2);
      const creation = await alternate(
        async () =>
          Math.round(
            (
              JSON.parse(
                await runChild('bench/raw-blast.ts', { BENCH_RAW: JSON.stringify(raw) }),
              ) as { rate: number }
            ).rate,
          ),
        async () => perSecond(await blastLoad(ROUND_SECONDS)),
        { figure: pid },
      );
      const underLoad = stopRss();
      recordRatio(
        'blast creation, 500 numbers (validation, normalisation, de-duplication, debit, ledger, rows)',
        engine,
        creation,
        'blasts/s',
        0.75,
        'the raw driver',
        'the same transaction through the raw driver (bench/raw-blast.ts)',
      );
      record({
        figure: 'server RSS under load (/me and blast creation, 50 connections)',
        engine,
        value: underLoad,
        unit: 'MB',
        baseline: null,
        ratio: null,
        target: engine === 'sqlite' ? '< 150 MB' : '-',
        met: engine === 'sqlite' ? underLoad < 150 : null,
      });

      // --- Writes one at a time: approvals of pending top-ups, result entry of fresh blasts
      const pendingOf = async (url: string, want: number) => {
        const ids: string[] = [];
        for (let page = 1; ids.length < want; page += 1) {
          const answer = await json<PageAnswer>(
            base,
            'GET',
            `${url}?status=pending&page=${page}&page_size=100`,
            at,
          );
          if (answer.items.length === 0) break;
          ids.push(
            ...answer.items
              .filter((i) => i.total_numbers === undefined || i.total_numbers === 500)
              .map((i) => i.id),
          );
        }
        return ids.slice(0, want);
      };
      const requests = await pendingOf('/api/admin/point-requests', SAMPLES + 20);
      const approve = await latency(
        base,
        (i) => ({
          method: 'POST',
          url: `/api/admin/point-requests/${requests[i]}/approve`,
          token: at,
        }),
        requests.length - 20,
      );
      record({
        figure: `approval of a top-up (${requests.length - 20} sequential)`,
        engine,
        value: approve.p95,
        unit: `ms p95 (p50 ${approve.p50}, p99 ${approve.p99})`,
        baseline: null,
        ratio: null,
        target: '- (reported)',
        met: null,
      });
      const blasts = await pendingOf('/api/admin/blast-requests', SAMPLES + 20);
      const results = await latency(
        base,
        (i) => ({
          method: 'POST',
          url: `/api/admin/blast-requests/${blasts[i]}/result`,
          token: at,
          body: { successful_count: 400, failed_count: 60, no_wa_count: 40, admin_notes: null },
        }),
        blasts.length - 20,
      );
      record({
        figure: `entry of a blast result, 500 numbers (${blasts.length - 20} sequential)`,
        engine,
        value: results.p95,
        unit: `ms p95 (p50 ${results.p50}, p99 ${results.p99})`,
        baseline: null,
        ratio: null,
        target: '- (reported)',
        met: null,
      });
    }

    const deliveryContext: DeliveryContext = {
      engine,
      base,
      serverPid: pid,
      adminToken: at,
      senders: senders.map((s) => s.access_token),
      database: { file: prepared.file, url: PG_URL, schema: PG_SCHEMA },
      seconds: SECONDS,
      roundSeconds: ROUND_SECONDS,
      rounds: ROUNDS,
      samples: SAMPLES,
      connections: CONNECTIONS,
      record,
      log,
      request,
      measured,
      cannon,
      spawnNode,
      runChild,
    };
    if (measures('delivery')) {
      await benchDelivery(deliveryContext);
      await benchGateway(deliveryContext);
    }

    if (browser && measures('browser')) {
      // Chromium and Lighthouse get every CPU, as a browser would.
      pinLoad(false);
      const client = await json<LoginAnswer>(base, 'POST', '/api/auth/login', undefined, {
        email: clientEmail(1),
        password: CLIENT_PASSWORD,
      });
      for (const figure of await measureBrowser({
        base,
        clientDir: path.join(WORK, 'client'),
        admin,
        client,
        log,
      })) {
        record(figure);
      }
    }
  } finally {
    pinLoad(false);
    await stop(server.child);
    await prepared.drop();
  }
}

// ---------------------------------------------------------------------------------------------

function table(rows: Figure[]) {
  const cells = rows.map((f) => [
    f.figure,
    f.engine,
    f.value === null ? 'n/a' : `${f.value} ${f.unit}`,
    f.baseline === null ? '' : String(f.baseline),
    f.ratio === null ? '' : `${(f.ratio * 100).toFixed(1)}%`,
    f.target,
    f.met === null ? '' : f.met ? 'yes' : 'NO',
  ]);
  const head = ['figure', 'engine', 'value', 'baseline', 'ratio', 'target', 'met?'];
  const width = head.map((h, i) =>
    Math.min(90, Math.max(h.length, ...cells.map((c) => c[i]!.length))),
  );
  const line = (c: string[]) => c.map((v, i) => v.padEnd(width[i]!)).join(' | ');
  return [line(head), width.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

async function main() {
  fs.mkdirSync(WORK, { recursive: true });
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const browser = process.env.BENCH_BROWSER !== '0';
  // The browser app is built into the bench's own folder, so dist/ of other work is untouched.
  log('building the browser app');
  const build = spawnSync(
    'npx',
    [
      'vite',
      'build',
      '--outDir',
      path.join(WORK, 'client'),
      '--emptyOutDir',
      '--manifest',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build failed');
  // As `npm run build` does: the .br/.gz copies the server sends instead of the plain files.
  const compress = spawnSync(
    'node',
    ['--import', 'tsx', 'scripts/compress-assets.ts', path.join(WORK, 'client')],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (compress.status !== 0) throw new Error('compressing the browser app failed');
  const bundle = spawnSync('node', ['--import', 'tsx', 'scripts/build-server.ts', SERVER_BUNDLE], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (bundle.status !== 0) throw new Error('bundling the server failed');
  for (const [i, engine] of ENGINES.entries()) {
    await benchEngine(engine, browser && i === 0);
  }
  const results = {
    command: COMMAND,
    scale: SCALE,
    seconds_per_throughput_run: SECONDS,
    samples_per_latency_figure: SAMPLES,
    connections: CONNECTIONS,
    // The machine is shared: the load averages say how noisy the latency tails may be.
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      load_at_start: loadAtStart,
      load_at_end: os.loadavg(),
      pinning: PIN
        ? `servers and baselines on CPU ${SERVER_CPU}, the load on CPUs 0-${CPUS - 2}`
        : 'none',
    },
    node: process.version,
    finished_at: new Date().toISOString(),
    duration_s: Math.round((Date.now() - started) / 1000),
    figures,
  };
  fs.rmSync(SERVER_LOG, { force: true }); // a server's log of a million requests: kept only on failure
  const saved = ONLY
    ? path.join(WORK, 'results-partial.json')
    : path.join(ROOT, 'bench', 'results.json');
  fs.writeFileSync(saved, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\n${table(figures)}\n\nLoad average (1, 5, 15 min): ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end, on ${os.cpus().length} CPUs; pinning: ${results.machine.pinning}.\nSaved ${path.relative(ROOT, saved)} (${COMMAND}, ${results.duration_s} s).`,
  );
}

await main();
