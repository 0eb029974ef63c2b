// Security headers on every kind of answer (success, each error, uploads, the app's pages, the
// framework's own refusals): a strict Content-Security-Policy with no inline script but the app
// page's own (allowed by its hash), frame-ancestors 'none', nosniff, a referrer policy; and no
// CORS for foreign origins.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';
import { form, tinyPng } from './routes.ts';

const EVIL = 'https://evil.example';
const SAFE_REFERRER = [
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
];

let server: TestServer;
let client: Awaited<ReturnType<TestServer['createClient']>>;
let clientDir: string;
let imageUrl: string;

beforeAll(async () => {
  // A stand-in for the built app, so the page, an asset and the deep-link fallback are served.
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-client-'));
  fs.mkdirSync(path.join(clientDir, 'assets'));
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><title>Sebar</title><script type="module" src="/assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)');
  server = await startServer({
    clientDir,
    login: { windowMs: 60_000, maxPerIp: 1000, maxPerPair: 1 },
  });
  client = await server.createClient();
  await server.api('POST', '/api/admin/settings', {
    token: server.adminToken,
    body: { account_number: '1', account_name: 'A', bank_name: 'B', allow_images: true },
  });
  const uploaded = await server.api('POST', '/api/upload/image', {
    token: client.token,
    raw: form('image', await tinyPng()),
  });
  imageUrl = uploaded.body.url;
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

function directives(csp: string) {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** The headers every answer must carry, whatever it is. */
function expectSecure(response: Response, where: string) {
  const csp = response.headers.get('content-security-policy');
  expect(csp, `${where}: CSP`).toBeTruthy();
  const policy = directives(csp!);
  const scripts = policy.get('script-src') ?? policy.get('default-src');
  expect(scripts, `${where}: script-src or default-src`).toBeDefined();
  for (const loose of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:'])
    expect(scripts, `${where}: script-src`).not.toContain(loose);
  expect(policy.get('frame-ancestors'), `${where}: frame-ancestors`).toEqual(["'none'"]);
  const objects = policy.get('object-src') ?? policy.get('default-src');
  expect(objects, `${where}: object-src`).toEqual(["'none'"]);
  expect(response.headers.get('x-content-type-options'), `${where}: nosniff`).toBe('nosniff');
  expect(SAFE_REFERRER, `${where}: referrer policy`).toContain(
    response.headers.get('referrer-policy'),
  );
  expect(response.headers.get('access-control-allow-origin'), `${where}: CORS`).toBeNull();
  expect(response.headers.get('access-control-allow-credentials'), `${where}: CORS`).toBeNull();
  expect(response.headers.get('x-powered-by'), `${where}: x-powered-by`).toBeNull();
}

interface Case {
  name: string;
  status: number;
  request: () => Promise<Response>;
}

const at = (url: string, init: RequestInit = {}) =>
  fetch(`${server.url}${url}`, {
    ...init,
    headers: { origin: EVIL, ...(init.headers as Record<string, string>) },
  });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const json = (token: string, body: string) => ({
  method: 'POST',
  headers: { ...auth(token), 'content-type': 'application/json' },
  body,
});

const CASES: Case[] = [
  { name: 'health', status: 200, request: () => at('/api/health') },
  { name: 'HEAD health', status: 200, request: () => at('/api/health', { method: 'HEAD' }) },
  { name: 'API document', status: 200, request: () => at('/api/docs') },
  { name: 'me', status: 200, request: () => at('/api/auth/me', { headers: auth(client.token) }) },
  { name: 'no token', status: 401, request: () => at('/api/auth/me') },
  {
    name: 'wrong role',
    status: 403,
    request: () => at('/api/admin/users', { headers: auth(client.token) }),
  },
  { name: 'unknown API path', status: 404, request: () => at('/api/tidak-ada') },
  {
    name: 'malformed JSON',
    status: 400,
    request: () => at('/api/admin/notes', json(server.adminToken, '{')),
  },
  {
    name: 'validation error',
    status: 422,
    request: () => at('/api/admin/notes', json(server.adminToken, '{"title":""}')),
  },
  {
    name: 'conflict',
    status: 409,
    request: () =>
      at(
        '/api/admin/users',
        json(
          server.adminToken,
          JSON.stringify({ username: 'x', email: client.user.email, password: 'rahasia-1' }),
        ),
      ),
  },
  {
    name: 'body too large',
    status: 413,
    request: () => at('/api/admin/notes', json(server.adminToken, `"${'x'.repeat(1_100_000)}"`)),
  },
  {
    name: 'unsupported type',
    status: 415,
    request: () =>
      at('/api/admin/notes', {
        method: 'POST',
        headers: { ...auth(server.adminToken), 'content-type': 'text/xml' },
        body: '<a/>',
      }),
  },
  {
    name: 'sign-in blocked',
    status: 429,
    request: async () => {
      const body = JSON.stringify({ email: 'kunci@contoh.test', password: 'salah' });
      await at('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return at('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    },
  },
  { name: 'undecodable path', status: 400, request: () => at('/api/admin/notes/%ff') },
  {
    name: 'over-long parameter',
    status: 414,
    request: () => at(`/api/admin/blast-requests/${'a'.repeat(300)}`),
  },
  { name: 'uploaded image', status: 200, request: () => at(imageUrl) },
  { name: 'missing upload', status: 404, request: () => at('/uploads/tidak-ada.png') },
  { name: 'app page', status: 200, request: () => at('/', { headers: { accept: 'text/html' } }) },
  {
    name: 'deep link',
    status: 200,
    request: () => at('/blast-results', { headers: { accept: 'text/html' } }),
  },
  { name: 'app script', status: 200, request: () => at('/assets/app.js') },
  { name: 'missing asset', status: 404, request: () => at('/assets/tidak-ada.js') },
  {
    name: 'CORS preflight',
    status: 404,
    request: () =>
      at('/api/auth/login', {
        method: 'OPTIONS',
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      }),
  },
];

describe('security headers', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, { name, status, request }) => {
      const response = await request();
      await response.arrayBuffer();
      expect(response.status, name).toBe(status);
      expectSecure(response, name);
    },
  );

  it('a foreign origin gets no CORS grant even on a successful, credentialed call', async () => {
    const response = await at('/api/auth/me', {
      headers: { ...auth(client.token), origin: EVIL, cookie: 'x=1' },
    });
    expect(response.status).toBe(200);
    expect([...response.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });
});

describe('two policies', () => {
  it("a JSON answer lets nothing load; the app's pages get the policy the app runs under", async () => {
    for (const answer of [
      await at('/api/auth/me', { headers: auth(client.token) }),
      await at('/api/tidak-ada'),
    ]) {
      const policy = directives(answer.headers.get('content-security-policy')!);
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
    for (const answer of [
      await at('/', { headers: { accept: 'text/html' } }),
      await at('/login'),
    ]) {
      const policy = directives(answer.headers.get('content-security-policy')!);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      // The blast form previews a chosen image from a blob: URL before it is uploaded.
      expect(policy.get('img-src')).toContain('blob:');
      expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
  });
});

describe('the built app runs under that policy', () => {
  const built = path.resolve('dist/client');
  it.runIf(fs.existsSync(path.join(built, 'index.html')))(
    'index.html has no inline script nor inline handler, and its pages allow only their own scripts',
    async () => {
      const html = fs.readFileSync(path.join(built, 'index.html'), 'utf8');
      const tags = html.match(/<script\b[^>]*>/gi) ?? [];
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.filter((tag) => !/\ssrc=/.test(tag))).toEqual([]);
      expect(html).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html).not.toMatch(/javascript:/i);

      const app = await startServer({ clientDir: built });
      try {
        for (const page of ['/', '/blast-form', '/login']) {
          const answer = await fetch(`${app.url}${page}`, { headers: { accept: 'text/html' } });
          expect(answer.status).toBe(200);
          expectSecure(answer, page);
          const policy = directives(answer.headers.get('content-security-policy')!);
          expect(policy.get('script-src'), page).toEqual(["'self'"]);
        }
      } finally {
        await app.close();
      }
    },
  );
});
