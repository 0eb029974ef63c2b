// Starts the real server on a fresh real database (a new SQLite file, or a new PostgreSQL
// schema) listening on a loopback port, and speaks HTTP to it the way the browser does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { LoginResponse, User } from '#common/auth.ts';
import { buildApp, type BuiltApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { DbHandle } from '#server/db/connection.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { openSqlite } from '#server/db/sqlite.ts';

export const ADMIN = { email: 'admin@sebar.test', password: 'admin-rahasia-123' };
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const engine = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer extends BuiltApp {
  url: string;
  database: DbHandle;
  config: Config;
  adminToken: string;
  api<T = any>(
    method: string,
    url: string,
    options?: {
      token?: string | null;
      body?: unknown;
      headers?: Record<string, string>;
      raw?: BodyInit;
    },
  ): Promise<ApiAnswer<T>>;
  login(email: string, password: string): Promise<LoginResponse>;
  /** Creates a client through the admin API and signs it in. */
  createClient(
    overrides?: Partial<{ username: string; email: string; password: string }>,
  ): Promise<{
    user: User;
    token: string;
    password: string;
  }>;
  close(): Promise<void>;
}

/** A fresh, empty database of the engine under test. */
export async function freshDatabase(): Promise<{
  handle: DbHandle;
  config: Partial<Config>;
  drop(): Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-test-'));
  if (engine === 'sqlite') {
    const config = { dataDir, databaseUrl: null };
    return {
      handle: openSqlite(path.join(dataDir, 'sebar.sqlite')),
      config,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    handle: openPostgres(TEST_DATABASE_URL, schema),
    config: { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema },
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const fresh = await freshDatabase();
  const config: Config = {
    ...loadConfig({}),
    logLevel: 'silent',
    host: '127.0.0.1',
    port: 0,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    userRateLimit: 0,
    clientDir: path.join(fresh.config.dataDir ?? os.tmpdir(), 'no-client'),
    ...fresh.config,
    ...overrides,
  };
  const built = await buildApp(config, fresh.handle);
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const api: TestServer['api'] = async (method, route, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined = options.raw;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${url}${route}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as never, headers: response.headers };
  };

  const login = async (email: string, password: string) => {
    const answer = await api<LoginResponse>('POST', '/api/auth/login', {
      body: { email, password },
    });
    if (answer.status !== 200)
      throw new Error(`login failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const adminToken = (await login(ADMIN.email, ADMIN.password)).access_token;
  let clients = 0;

  return {
    ...built,
    url,
    config,
    database: fresh.handle,
    adminToken,
    api,
    login,
    async createClient(input = {}) {
      clients += 1;
      const password = input.password ?? 'client-rahasia';
      const email =
        input.email ?? `client${clients}-${crypto.randomBytes(3).toString('hex')}@sebar.test`;
      const created = await api<User>('POST', '/api/admin/users', {
        token: adminToken,
        body: { username: input.username ?? `klien${clients}`, email, password, role: 'client' },
      });
      if (created.status !== 201)
        throw new Error(`create client failed: ${JSON.stringify(created.body)}`);
      const session = await login(email, password);
      return { user: created.body, token: session.access_token, password };
    },
    async close() {
      await built.app.close();
      await fresh.drop();
    },
  };
}
