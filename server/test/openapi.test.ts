// The API document at /api/docs as a client developer reads it, loaded from the real server:
// every operation lists the error answers it can give with their schema, public operations need
// no token, the uploads describe their form, declared text limits are the applied ones; and bad
// requests to every operation are answered as the document says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUSES } from '#server/plugins/openapi.ts';
import { startServer, type TestServer } from './helpers.ts';
import { answerChecker, documentPath, type ApiDocument } from './openapi.ts';
import { exampleBody, pathFor, seedFixtures, type Fixtures } from './routes.ts';

let server: TestServer;
let fx: Fixtures;
let doc: ApiDocument;
beforeAll(async () => {
  server = await startServer();
  fx = await seedFixtures(server);
  const answer = await server.api<ApiDocument>('GET', '/api/docs');
  expect(answer.status).toBe(200);
  doc = answer.body;
});
afterAll(() => server?.close());

const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
const ERROR_REF = '#/components/schemas/Error';

/** The documented operations: every /api route but the document itself. */
const operations = () =>
  server.routes
    .filter((r) => r.url.startsWith('/api') && r.url !== '/api/docs' && r.method !== 'HEAD')
    // Deletions last, so the other calls meet their objects; sign-out after them, since it
    // ends the token the others use.
    .sort((a, b) => callOrder(a) - callOrder(b));

const callOrder = (route: { method: string; url: string }) =>
  route.url === '/api/auth/logout' ? 2 : Number(route.method === 'DELETE');

const operation = (method: string, url: string) =>
  doc.paths[documentPath(url)]![method.toLowerCase()];

function tokenFor(access: string | undefined, wrongRole = false) {
  if (access === 'admin') return wrongRole ? fx.a.token : server.adminToken;
  if (access === 'client') return wrongRole ? server.adminToken : fx.a.token;
  if (access === 'user') return server.adminToken;
  return null;
}

describe('the API document', () => {
  it('declares the {detail, errors?} shape once, for every error answer', () => {
    expect(doc.components.schemas.Error).toEqual({
      type: 'object',
      properties: {
        detail: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, message: { type: 'string' } },
            required: ['field', 'message'],
            additionalProperties: false,
          },
        },
      },
      required: ['detail'],
      additionalProperties: false,
    });
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (Number(status) < 400) continue;
          expect(
            response.content['application/json'].schema,
            `${method} ${path} ${status}`,
          ).toEqual({ $ref: ERROR_REF });
          expect(response.description).toBe(ERROR_STATUSES[Number(status)]);
        }
      }
    }
  });

  it('lists, on every operation, each error status it can answer', () => {
    const list = operations();
    expect(list.length).toBeGreaterThan(40);
    for (const { method, url, access } of list) {
      const where = `${method} ${url}`;
      const declared = Object.keys(operation(method, url).responses).map(Number);
      const expected = [422, 429, 500];
      if (access !== 'public') expected.push(401);
      if (access === 'admin' || access === 'client') expected.push(403);
      if (url.includes(':')) expected.push(400, 404, 414);
      if (BODY_METHODS.includes(method)) expected.push(400, 409, 413, 415);
      expect(declared, where).toEqual(expect.arrayContaining(expected));
      expect(declared.filter((s) => s < 300).length, where).toBe(1);
    }
    // Sign-in answers wrong credentials and an inactive account too.
    expect(Object.keys(operation('POST', '/api/auth/login').responses)).toEqual(
      expect.arrayContaining(['401', '403']),
    );
    expect(operation('GET', '/api/health').responses['200'].content).toBeDefined();
  });

  it('marks public operations as needing no token, and the others as needing the bearer token', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const publicOnes: string[] = [];
    for (const { method, url, access } of operations()) {
      const op = operation(method, url);
      if (access === 'public') {
        expect(op.security, `${method} ${url}`).toEqual([]);
        publicOnes.push(`${method} ${url}`);
      } else {
        expect(op.security, `${method} ${url}`).toBeUndefined();
      }
    }
    expect(publicOnes).toEqual(expect.arrayContaining(['POST /api/auth/login', 'GET /api/health']));
  });

  it('describes both uploads as a multipart form with one binary file field', () => {
    for (const [path, field] of [
      ['/api/upload/image', 'image'],
      ['/api/admin/upload-qr', 'file'],
    ] as const) {
      const body = operation('POST', path).requestBody;
      expect(body.required, path).toBe(true);
      expect(Object.keys(body.content), path).toEqual(['multipart/form-data']);
      const schema = body.content['multipart/form-data'].schema;
      expect(schema.required, path).toEqual([field]);
      expect(schema.properties[field], path).toMatchObject({ type: 'string', format: 'binary' });
      expect(schema.properties[field].description, path).toContain('5 MB');
    }
    // Every other operation with a body takes JSON.
    for (const { method, url } of operations()) {
      const body = operation(method, url).requestBody;
      if (!body || url.includes('upload')) continue;
      expect(Object.keys(body.content), `${method} ${url}`).toEqual(['application/json']);
    }
  });

  it('refuses a text one character over its declared maxLength, leading whitespace included', async () => {
    let checked = 0;
    for (const { method, url, access } of operations()) {
      const schema = operation(method, url).requestBody?.content['application/json']?.schema;
      if (!schema?.properties) continue;
      for (const [field, property] of Object.entries(schema.properties as Record<string, any>)) {
        if (property.type !== 'string' || !(property.maxLength <= 100_000)) continue;
        const example = exampleBody(method, url, fx).body as Record<string, unknown>;
        const answer = await server.api(method, pathFor(url, fx), {
          token: tokenFor(access),
          body: { ...example, [field]: `\n${'x'.repeat(property.maxLength)}` },
        });
        const where = `${method} ${url} ${field} (maxLength ${property.maxLength})`;
        expect(answer.status, where).toBe(422);
        expect(
          answer.body.errors.map((e: { field: string }) => e.field),
          where,
        ).toContain(field);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('accepts a text of exactly its declared maxLength, and stores it trimmed', async () => {
    const title = operation('POST', '/api/admin/notes').requestBody.content['application/json']
      .schema.properties.title;
    expect(title).toMatchObject({ type: 'string', maxLength: 200, pattern: '\\S' });
    const answer = await server.api('POST', '/api/admin/notes', {
      token: server.adminToken,
      body: { title: `\n${'j'.repeat(198)} `, content: ' isi ' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ title: 'j'.repeat(198), content: 'isi' });
    const blank = await server.api('POST', '/api/admin/notes', {
      token: server.adminToken,
      body: { title: ' \n\t', content: 'isi' },
    });
    expect(blank.status).toBe(422);
  });
});

describe('bad requests to every operation', () => {
  const MISSING_ID = '00000000-0000-4000-8000-000000000000';

  it('are answered with a status the operation declares, in the declared shape', async () => {
    const check = answerChecker(doc);
    const problems: string[] = [];
    const seen = new Map<number, number>();
    const send = async (
      method: string,
      url: string,
      path: string,
      options: Parameters<TestServer['api']>[2],
    ) => {
      const answer = await server.api(method, path, options);
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      const problem = check(method, url, answer.status, answer.body);
      if (problem) problems.push(`${problem} (sent to ${path})`);
      return answer;
    };
    for (const { method, url, access } of operations()) {
      const path = pathFor(url, fx);
      const token = tokenFor(access);
      const example = () => exampleBody(method, url, fx);
      // Who calls: nobody, a forged token, the wrong role.
      await send(method, url, path, { ...example(), token: 'bukan.token.sah' });
      await send(method, url, path, example());
      if (access === 'admin' || access === 'client')
        await send(method, url, path, { ...example(), token: tokenFor(access, true) });
      // Text no store can keep, in the query string.
      await send(method, url, `${path}?q=%00`, { ...example(), token });
      if (url.includes(':')) {
        for (const param of [MISSING_ID, 'x'.repeat(300), '%E0%A4%A']) {
          await send(method, url, url.replace(/:[a-z]+/, param), { ...example(), token });
        }
      }
      if (BODY_METHODS.includes(method)) {
        for (const [type, raw] of [
          ['application/json', '{"rusak":'],
          ['application/json', ''],
          ['application/json', '{}'],
          ['application/json', '[]'],
          ['text/plain', 'teks'],
          ['application/json', `{"a":"${'x'.repeat(9 * 1024 * 1024)}"}`],
        ] as const) {
          await send(method, url, path, { token, raw, headers: { 'content-type': type } });
        }
      }
      // The call done right.
      await send(method, url, path, { ...example(), token });
    }
    console.log(`[openapi] answers by status: ${JSON.stringify(Object.fromEntries(seen))}`);
    expect(problems).toEqual([]);
    for (const status of [200, 201, 400, 401, 403, 404, 413, 414, 415, 422]) {
      expect(seen.get(status), `no ${status} was seen`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('answers 429 as declared when the rate limit is reached', async () => {
    const limited = await startServer({ userRateLimit: 2 });
    try {
      const check = answerChecker(doc);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const answer = await limited.api('GET', '/api/auth/me', { token: limited.adminToken });
        statuses.push(answer.status);
        expect(check('GET', '/api/auth/me', answer.status, answer.body)).toBeNull();
        if (answer.status === 429)
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect(statuses).toContain(429);
    } finally {
      await limited.close();
    }
  });
});
