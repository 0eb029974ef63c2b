// The server as a whole: the placeholder page without a client build, the built app's pages to
// GET and HEAD, the OpenAPI document listing every /api route, and its close under traffic.
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('the server', () => {
  it('serves a placeholder page at / and at deep links when no client is built, to browsers and curl', async () => {
    for (const path of ['/', '/blast-results', '/users']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('Sebar API berjalan');
    }
    // Without a browser's Accept header (curl sends */*) a screen's path is still the app...
    for (const path of ['/', '/login', '/blast-form?x=1']) {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: '*/*' } });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('Sebar API berjalan');
    }
    // ...and a missing file is a 404, not the app's page under a script's name.
    const missing = await server.api('GET', '/assets/tidak-ada.js', { headers: { accept: '*/*' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Tidak ditemukan' });
    const api = await server.api('GET', '/api/tidak-ada', { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ detail: 'Tidak ditemukan' });
  });

  it('answers HEAD on the placeholder page as GET, without a body', async () => {
    for (const path of ['/', '/login']) {
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toContain('text/html');
      expect(await head.text()).toBe('');
    }
  });

  it('answers health with a database round trip', async () => {
    const health = await server.api('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', engine: process.env.TEST_DB ?? 'sqlite' });
  });

  it('publishes an OpenAPI document at /api/docs listing every /api route', async () => {
    const docs = await server.api('GET', '/api/docs');
    expect(docs.status).toBe(200);
    expect(docs.body.openapi).toMatch(/^3\./);
    const newClient =
      docs.body.paths['/api/admin/users'].post.requestBody.content['application/json'];
    expect(newClient.schema.properties.email).toMatchObject({ type: 'string', format: 'email' });
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(docs.body.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const registered = server.routes
      .filter((r) => r.url.startsWith('/api') && r.url !== '/api/docs' && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(30);
    expect(registered.filter((r) => !documented.has(r))).toEqual([]);
    // Every call SPEC section 7 lists is among them, under /api.
    for (const call of [
      'POST /api/auth/login',
      'GET /api/admin/dashboard',
      'GET /api/admin/contacts',
      'POST /api/admin/contacts',
      'PUT /api/admin/contacts/{id}',
      'DELETE /api/admin/contacts/{id}',
      'GET /api/admin/notes',
      'POST /api/admin/notes',
      'PUT /api/admin/notes/{id}',
      'DELETE /api/admin/notes/{id}',
      'GET /api/admin/settings',
      'POST /api/admin/settings',
      'POST /api/admin/upload-qr',
      'GET /api/admin/qr-data/{filename}',
      'GET /api/admin/pricing',
      'POST /api/admin/pricing',
      'PUT /api/admin/pricing/{id}',
      'DELETE /api/admin/pricing/{id}',
      'GET /api/admin/point-requests',
      'POST /api/admin/point-requests/{id}/approve',
      'POST /api/admin/point-requests/{id}/reject',
      'GET /api/admin/blast-requests',
      'POST /api/admin/blast-requests/{id}/result',
      'POST /api/admin/blast-requests/{id}/number-statuses',
      'GET /api/admin/users',
      'POST /api/admin/users',
      'PUT /api/admin/users/{id}',
      'PUT /api/admin/users/{id}/password',
      'DELETE /api/admin/users/{id}',
      'GET /api/client/dashboard',
      'GET /api/public/settings',
      'POST /api/upload/image',
      'POST /api/client/blast-requests',
      'GET /api/client/contacts',
      'GET /api/pricing',
      'POST /api/client/point-requests',
      'GET /api/client/blast-requests',
      'GET /api/client/point-requests',
      'GET /api/client/transactions',
    ]) {
      expect(documented, call).toContain(call);
    }
    // Issue 26's calls, with their bodies described.
    for (const call of [
      'POST /api/auth/logout',
      'POST /api/auth/change-password',
      'DELETE /api/admin/users/{id}/sign-in-block',
    ])
      expect(documented, call).toContain(call);
    const change = docs.body.paths['/api/auth/change-password'].post;
    expect(
      Object.keys(change.requestBody.content['application/json'].schema.properties).sort(),
    ).toEqual(['current_password', 'new_password']);
    expect(
      Object.keys(change.responses['200'].content['application/json'].schema.properties),
    ).toEqual(expect.arrayContaining(['access_token', 'user', 'detail']));
    const role = newClient.schema.properties.role;
    expect(role.enum).toEqual(['super_admin', 'client']);
  });
});

describe('a built client', () => {
  // The app as `npm run build` leaves it: the page, and one asset with its compressed copies.
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-client-'));
  let built: TestServer;
  beforeAll(async () => {
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html lang="id"><head><title>Sebar</title></head><body><div id="root"></div></body></html>',
    );
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log("sebar");');
    built = await startServer({ clientDir });
  });
  afterAll(async () => {
    await built?.close();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  // Uptime checks ask with HEAD: every page the app has, the shared ones and each shell's.
  const pages = [
    '/',
    '/login',
    '/blast-form',
    '/topup',
    '/topup-history',
    '/point-history',
    '/blast-results',
    '/users',
    '/settings',
    '/point-requests?page=2',
    '/assets/app.js',
  ];

  it('answers HEAD on every page as GET does, with no body', async () => {
    for (const page of pages) {
      const get = await fetch(`${built.url}${page}`);
      const head = await fetch(`${built.url}${page}`, { method: 'HEAD' });
      expect(get.status, `GET ${page}`).toBe(200);
      expect(head.status, `HEAD ${page}`).toBe(200);
      expect(head.headers.get('content-type'), page).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length'), page).toBe(
        String(Buffer.byteLength(await get.text())),
      );
      expect(await head.text(), page).toBe('');
    }
  });

  it('answers HEAD with 404 where GET answers 404', async () => {
    for (const missing of ['/api/tidak-ada', '/api/admin/tidak-ada', '/assets/tidak-ada.js']) {
      const get = await fetch(`${built.url}${missing}`);
      const head = await fetch(`${built.url}${missing}`, { method: 'HEAD' });
      expect(get.status, `GET ${missing}`).toBe(404);
      expect(head.status, `HEAD ${missing}`).toBe(404);
      expect(head.headers.get('content-type'), missing).toContain('application/json');
    }
  });
});

describe('closing', () => {
  it('answers the request on its way, then closes without waiting for its client to hang up', async () => {
    const closing = await startServer();
    const socket = net.connect(Number(new URL(closing.url).port), '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    // The server's end of the connection comes after all it wrote (its answer is read by then).
    const ended = once(socket, 'end');
    // A keep-alive client's sign-in, its head and part of its body sent when the close begins.
    const body = JSON.stringify({ email: 'tidak-ada@sebar.test', password: 'bukan-sandinya' });
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body.slice(0, 10)}`,
    );
    await sleep(100);
    const started = Date.now();
    const closed = closing.close();
    await sleep(100);
    socket.write(body.slice(10));
    await closed;
    await ended;
    // Node keeps such a connection open for the keep-alive timeout (72 s) unless it is ended.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    socket.destroy();
  });
});
