// `npm start` and `npm run serve` as an operator runs them: the start line names where the
// server really listens, and a signal to the npm process stops the server, leaving none behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listeningMessage } from '#server/listening.ts';
import {
  freePort,
  processDatabase,
  REPO_ROOT,
  send,
  spawnServer,
  stopChildren,
  waitHealthy,
  type ChildServer,
  type Launch,
  type ProcessDatabase,
  withDb,
  workerProcess,
} from './processes.ts';

/** The npm projects made for the runs, removed at the end. */
const projects: string[] = [];
afterAll(async () => {
  await stopChildren();
  for (const dir of projects) fs.rmSync(dir, { recursive: true, force: true });
});

const scripts = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/**
 * A project with package.json's own `start` and `serve` scripts whose build is done: the test's
 * bundle of the current source stands as dist/server/main.js (a link, so its native addons still
 * resolve from the repository's node_modules).
 */
const npmRun =
  (script: string, group = false): Launch =>
  (bundle) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-npm-'));
    projects.push(dir);
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: 'sebar-start-test',
        private: true,
        type: 'module',
        scripts: { build: 'true', start: scripts.start, serve: scripts.serve },
      }),
    );
    fs.mkdirSync(path.join(dir, 'dist', 'server'), { recursive: true });
    fs.symlinkSync(bundle, path.join(dir, 'dist', 'server', 'main.js'));
    return { command: 'npm', args: ['run', script], cwd: dir, group };
  };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The server's start line (pino JSON) from what the processes printed. It is written just after
 * the socket opens, so a health answer can come first: wait for it a little.
 */
function startLine(server: ChildServer): Promise<{ msg: string; pid: number }> {
  return vi.waitFor(
    () => {
      const output = server.output();
      const line = output.split('\n').find((text) => text.includes('Server listening on'));
      if (!line) throw new Error(`no start line in:\n${output}`);
      return JSON.parse(line) as { msg: string; pid: number };
    },
    { timeout: 5000, interval: 50 },
  );
}

describe('starting and stopping the server through npm', () => {
  let database: ProcessDatabase;
  const serverPids: number[] = [];
  beforeAll(async () => {
    database = await processDatabase();
  });
  afterAll(() => database?.drop());
  // A server a failed test left running is ended here, by its own process id.
  afterEach(() => {
    for (const pid of serverPids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it.each([
    ['start', 'SIGTERM'],
    ['start', 'SIGINT'],
    ['serve', 'SIGTERM'],
  ] as const)(
    '`npm run %s` stops the server on %s sent to npm',
    async (script, signal) => {
      const port = await freePort();
      const server = spawnServer(database, port, { LOG_LEVEL: 'info' }, npmRun(script));
      await waitHealthy(server);
      const { pid } = await startLine(server);
      serverPids.push(pid);
      expect(pid).not.toBe(server.child.pid);

      server.child.kill(signal);
      const stopped = await Promise.race([
        server.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      expect(stopped, `npm did not exit on ${signal}`).toBe(true);
      // npm waits for the server to close before it exits itself.
      expect(alive(pid), `server process ${pid} still running`).toBe(false);
      const after = await send({ url: server.url, method: 'GET', path: '/api/health' }, 2000);
      expect(after.status).toBe(0);
      expect(after.error).toBe('ECONNREFUSED');
      // The log says why it stopped.
      const stopping = server
        .output()
        .split('\n')
        .filter((line) => line.includes('"Stopping on signal"'));
      expect(stopping.map((line) => JSON.parse(line).signal)).toEqual([signal]);
    },
    60_000,
  );

  it('closes cleanly on Ctrl-C in a terminal, which signals npm and the server at once', async () => {
    const port = await freePort();
    const server = spawnServer(database, port, { LOG_LEVEL: 'info' }, npmRun('start', true));
    await waitHealthy(server);
    const { pid } = await startLine(server);
    serverPids.push(pid);
    // The terminal's SIGINT goes to the whole foreground group; each npm forwards it once more,
    // so the server gets it three times: a repeat must not kill it halfway through closing.
    process.kill(-server.child.pid!, 'SIGINT');
    await server.exited;
    expect(alive(pid)).toBe(false);
    expect([server.child.exitCode, server.child.signalCode], server.output()).toEqual([0, null]);
  });

  it('logs every address it listens on: the wildcard by default, one address when given', async () => {
    // HOST unset: the default binds every IPv4 interface.
    const port = await freePort();
    const wildcard = spawnServer(database, port, { LOG_LEVEL: 'info', HOST: '' }, npmRun('serve'));
    await waitHealthy(wildcard);
    const everywhere = await startLine(wildcard);
    serverPids.push(everywhere.pid);
    expect(everywhere.msg).toBe(listeningMessage([{ address: '0.0.0.0', family: 'IPv4', port }]));
    expect(everywhere.msg).toContain(`0.0.0.0:${port} (every IPv4 interface: `);
    expect(everywhere.msg).toContain(`http://127.0.0.1:${port}`);
    await wildcard.kill('SIGTERM');

    const one = spawnServer(database, port, { LOG_LEVEL: 'info', HOST: '127.0.0.1' });
    await waitHealthy(one);
    expect((await startLine(one)).msg).toBe(`Server listening on http://127.0.0.1:${port}`);
    await one.kill('SIGTERM');
  });
});

describe('a start that cannot go on', () => {
  it('stops at once and says why in one readable line, with nothing stored', async () => {
    const database = await processDatabase();
    try {
      const server = spawnServer(database, await freePort(), {
        LOG_LEVEL: 'info',
        SEBAR_ADMIN_EMAIL: 'bukan-email',
      });
      await server.exited;
      const output = server.output();
      expect(server.child.exitCode, output).toBe(1);
      expect(output).toContain(
        'Sebar tidak dapat dimulai: SEBAR_ADMIN_EMAIL / SEBAR_ADMIN_PASSWORD: Format email tidak valid',
      );
      // Not Node's report of an uncaught error, which quotes the bundle's minified source line.
      const longest = Math.max(...output.split('\n').map((line) => line.length));
      expect(longest, output.slice(0, 2000)).toBeLessThan(300);
      const admins = await withDb(database, ({ db }) =>
        db.selectFrom('users').select('id').execute(),
      );
      expect(admins).toEqual([]);
    } finally {
      await database.drop();
    }
  });

  it('ends a delivery worker (npm run worker) that cannot reach its database the same way', async () => {
    const database = await processDatabase();
    try {
      const worker = spawnServer(
        database,
        await freePort(),
        { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/sebar' },
        workerProcess,
      );
      await worker.exited;
      const output = worker.output();
      expect(worker.child.exitCode, output).toBe(1);
      expect(output).toContain('Sebar tidak dapat dimulai: connect ECONNREFUSED 127.0.0.1:1');
    } finally {
      await database.drop();
    }
  });
});

describe('listeningMessage', () => {
  const interfaces = {
    lo: [
      { address: '127.0.0.1', family: 'IPv4' },
      { address: '::1', family: 'IPv6' },
    ],
    eth0: [
      { address: '192.0.2.2', family: 'IPv4' },
      { address: 'fd00::2', family: 'IPv6' },
      { address: 'fe80::1', family: 'IPv6' },
    ],
  } as unknown as NodeJS.Dict<os.NetworkInterfaceInfo[]>;

  it('names a wildcard and the interface addresses it reaches', () => {
    expect(listeningMessage([{ address: '0.0.0.0', family: 'IPv4', port: 8000 }], interfaces)).toBe(
      'Server listening on 0.0.0.0:8000 (every IPv4 interface: http://127.0.0.1:8000, http://192.0.2.2:8000)',
    );
    expect(listeningMessage([{ address: '::', family: 'IPv6', port: 8000 }], interfaces)).toBe(
      'Server listening on [::]:8000 (every interface: http://127.0.0.1:8000, http://[::1]:8000, http://192.0.2.2:8000, http://[fd00::2]:8000)',
    );
  });

  it('names one address as its URL', () => {
    expect(
      listeningMessage(
        [
          { address: '127.0.0.1', family: 'IPv4', port: 8000 },
          { address: '::1', family: 'IPv6', port: 8000 },
        ],
        interfaces,
      ),
    ).toBe('Server listening on http://127.0.0.1:8000; http://[::1]:8000');
  });
});
