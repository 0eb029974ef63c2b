// Who may call what: a table of every route with its roles and ownership rule, checked against
// the routes the server registered; every guarded route refuses every kind of bad credential and
// the wrong role; one client never reaches another's objects; unknown fields never take effect.
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN, SESSION_INVALID } from '#server/plugins/auth.ts';
import { startServer, type ApiAnswer, type TestServer } from './helpers.ts';
import { exampleBody, pathFor, seedFixtures, type Fixtures } from './routes.ts';
import { snapshot } from './snapshot.ts';

type Access = 'public' | 'user' | 'admin' | 'client';
/**
 * none: no per-owner data; shared: the same for every signed-in user; self: the caller's own
 * account; own: only the caller's rows (another client's are 404); current-qr: a client gets only
 * the QR the settings name; file: public by its unguessable random name; signed: public, with
 * its own credential in the request (the verify token, the body's signature; webhooks.test.ts).
 */
type Ownership = 'none' | 'shared' | 'self' | 'own' | 'current-qr' | 'file' | 'signed';

const ROUTES: [method: string, url: string, access: Access, ownership: Ownership][] = [
  ['POST', '/api/auth/login', 'public', 'none'],
  ['GET', '/api/auth/me', 'user', 'self'],
  ['POST', '/api/auth/change-password', 'user', 'self'],
  ['GET', '/api/admin/users', 'admin', 'none'],
  ['POST', '/api/admin/users', 'admin', 'none'],
  ['PUT', '/api/admin/users/:id', 'admin', 'none'],
  ['PUT', '/api/admin/users/:id/password', 'admin', 'none'],
  ['DELETE', '/api/admin/users/:id/sign-in-block', 'admin', 'none'],
  ['DELETE', '/api/admin/users/:id', 'admin', 'none'],
  ['GET', '/api/admin/contacts', 'admin', 'none'],
  ['GET', '/api/client/contacts', 'client', 'shared'],
  ['POST', '/api/admin/contacts', 'admin', 'none'],
  ['PUT', '/api/admin/contacts/:id', 'admin', 'none'],
  ['DELETE', '/api/admin/contacts/:id', 'admin', 'none'],
  ['GET', '/api/admin/notes', 'admin', 'none'],
  ['POST', '/api/admin/notes', 'admin', 'none'],
  ['PUT', '/api/admin/notes/:id', 'admin', 'none'],
  ['DELETE', '/api/admin/notes/:id', 'admin', 'none'],
  ['GET', '/api/admin/settings', 'admin', 'none'],
  ['GET', '/api/public/settings', 'user', 'shared'],
  ['POST', '/api/admin/settings', 'admin', 'none'],
  ['GET', '/api/admin/delivery', 'admin', 'none'],
  ['PUT', '/api/admin/delivery', 'admin', 'none'],
  ['POST', '/api/admin/delivery/test', 'admin', 'none'],
  ['GET', '/api/admin/delivery/queue', 'admin', 'none'],
  ['POST', '/api/admin/delivery/resume', 'admin', 'none'],
  ['POST', '/api/admin/delivery/gateway/test', 'admin', 'none'],
  ['GET', '/api/admin/delivery/devices', 'admin', 'none'],
  ['POST', '/api/admin/delivery/devices', 'admin', 'none'],
  ['GET', '/api/admin/delivery/devices/:session/qr', 'admin', 'none'],
  ['POST', '/api/admin/delivery/devices/:session/logout', 'admin', 'none'],
  ['POST', '/api/admin/delivery/devices/:session/start', 'admin', 'none'],
  ['POST', '/api/admin/delivery/devices/:session/resume', 'admin', 'none'],
  ['DELETE', '/api/admin/delivery/devices/:session', 'admin', 'none'],
  ['GET', '/api/admin/delivery/templates', 'admin', 'none'],
  ['POST', '/api/admin/delivery/templates/sync', 'admin', 'none'],
  ['PUT', '/api/admin/delivery/templates/:id', 'admin', 'none'],
  ['GET', '/api/client/templates', 'client', 'shared'],
  ['GET', '/api/admin/pricing', 'admin', 'none'],
  ['GET', '/api/pricing', 'user', 'shared'],
  ['POST', '/api/admin/pricing', 'admin', 'none'],
  ['PUT', '/api/admin/pricing/:id', 'admin', 'none'],
  ['DELETE', '/api/admin/pricing/:id', 'admin', 'none'],
  ['POST', '/api/client/point-requests', 'client', 'own'],
  ['GET', '/api/client/point-requests', 'client', 'own'],
  ['GET', '/api/admin/point-requests', 'admin', 'none'],
  ['POST', '/api/admin/point-requests/:id/approve', 'admin', 'none'],
  ['POST', '/api/admin/point-requests/:id/reject', 'admin', 'none'],
  ['GET', '/api/client/transactions', 'client', 'own'],
  ['POST', '/api/client/blast-requests', 'client', 'own'],
  ['GET', '/api/client/blast-requests', 'client', 'own'],
  ['GET', '/api/client/blast-requests/:id', 'client', 'own'],
  ['POST', '/api/client/blast-requests/:id/cancel', 'client', 'own'],
  ['GET', '/api/admin/blast-requests', 'admin', 'none'],
  ['GET', '/api/admin/blast-requests/:id', 'admin', 'none'],
  ['POST', '/api/admin/blast-requests/:id/result', 'admin', 'none'],
  ['POST', '/api/admin/blast-requests/:id/number-statuses', 'admin', 'none'],
  ['POST', '/api/admin/blast-requests/:id/reject', 'admin', 'none'],
  ['POST', '/api/upload/image', 'user', 'own'],
  ['POST', '/api/admin/upload-qr', 'admin', 'none'],
  ['GET', '/api/admin/qr-data/:filename', 'user', 'current-qr'],
  ['GET', '/uploads/:name', 'public', 'file'],
  ['GET', '/api/admin/dashboard', 'admin', 'none'],
  ['GET', '/api/client/dashboard', 'client', 'own'],
  ['GET', '/api/admin/opt-outs', 'admin', 'none'],
  ['POST', '/api/admin/opt-outs', 'admin', 'none'],
  ['DELETE', '/api/admin/opt-outs/:number', 'admin', 'none'],
  ['GET', '/api/webhooks/whatsapp', 'public', 'signed'],
  ['POST', '/api/webhooks/whatsapp', 'public', 'signed'],
  ['POST', '/api/webhooks/waha', 'public', 'signed'],
  ['GET', '/api/health', 'public', 'none'],
  ['GET', '/api/docs', 'public', 'none'],
  // Last: it ends the session it is called with (the role check below calls it with each token).
  ['POST', '/api/auth/logout', 'user', 'self'],
];
const GUARDED = ROUTES.filter(([, , access]) => access !== 'public');

let server: TestServer;
let fx: Fixtures;
/** Tokens that must each be refused everywhere, by name. */
let badTokens: Record<string, (access: Access) => string | null>;

async function revokedToken(
  change: (id: string, account: { email: string }) => Promise<ApiAnswer>,
) {
  const victim = await server.createClient();
  const answer = await change(victim.user.id, victim.user);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return victim.token;
}

beforeAll(async () => {
  server = await startServer();
  fx = await seedFixtures(server);
  const { api, adminToken } = server;
  const secret = await server.database.db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'jwt')
    .executeTakeFirstOrThrow();
  const realKey = Buffer.from(secret.value, 'base64');
  const admin = await api('GET', '/api/auth/me', { token: adminToken });
  /** A well-formed token for the route's own kind of user, signed as given. */
  const signed = async (access: Access, key: Uint8Array, expiresAt: number) =>
    new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(access === 'client' ? fx.a.user.id : admin.body.id)
      .setIssuedAt(expiresAt - 3600)
      .setExpirationTime(expiresAt)
      .sign(key);
  const now = Math.floor(Date.now() / 1000);
  const forged: Record<Access, string> = {} as never;
  const expired: Record<Access, string> = {} as never;
  for (const access of ['public', 'user', 'admin', 'client'] as const) {
    forged[access] = await signed(access, crypto.randomBytes(32), now + 3600);
    expired[access] = await signed(access, realKey, now - 60);
  }
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: admin.body.id, ver: 0, exp: now + 3600 })}.`;
  const tampered = `${adminToken.slice(0, -4)}${adminToken.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  const afterPassword = await revokedToken((id) =>
    api('PUT', `/api/admin/users/${id}/password`, {
      token: adminToken,
      body: { new_password: 'sandi-lain-123' },
    }),
  );
  const afterDeactivation = await revokedToken((id, { email }) =>
    api('PUT', `/api/admin/users/${id}`, {
      token: adminToken,
      body: { username: 'nonaktif', email, points: 0, is_active: false },
    }),
  );
  const afterDeletion = await revokedToken((id) =>
    api('DELETE', `/api/admin/users/${id}`, { token: adminToken }),
  );
  badTokens = {
    'no token': () => null,
    'garbage token': () => 'bukan-token-yang-sah',
    'forged signature': (access) => forged[access],
    'alg none': () => unsigned,
    'tampered signature': () => tampered,
    expired: (access) => expired[access],
    'revoked by password change': () => afterPassword,
    'revoked by deactivation': () => afterDeactivation,
    'revoked by deletion': () => afterDeletion,
  };
});
afterAll(() => server?.close());

function call(method: string, url: string, token: string | null, headers?: Record<string, string>) {
  return server.api(method, pathFor(url, fx), {
    ...exampleBody(method, url, fx),
    token,
    headers,
  });
}

/** An error answer that says only why: no data, no id, nothing of the object. */
function expectRefusal(answer: ApiAnswer, status: number, detail: string, where: string) {
  expect([answer.status, answer.body], where).toEqual([status, { detail }]);
}

describe('route table', () => {
  it('lists exactly the routes the server registered, with their declared access', () => {
    const registered = server.routes
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url} ${r.access ?? 'public'}`);
    expect(registered.sort()).toEqual(ROUTES.map(([m, u, a]) => `${m} ${u} ${a}`).sort());
    // Fastify adds a HEAD beside every GET; it carries the same access.
    const heads = server.routes
      .filter((r) => r.method === 'HEAD')
      .map((r) => `${r.url} ${r.access ?? 'public'}`);
    expect(heads.sort()).toEqual(
      ROUTES.filter(([m]) => m === 'GET')
        .map(([, u, a]) => `${u} ${a}`)
        .sort(),
    );
  });
});

describe('credentials', () => {
  it('every guarded route refuses every bad token with 401 and changes nothing', async () => {
    const before = await snapshot(server.database.db);
    let tried = 0;
    for (const [method, url, access] of GUARDED) {
      for (const [kind, token] of Object.entries(badTokens)) {
        const answer = await call(method, url, token(access));
        expectRefusal(answer, 401, SESSION_INVALID, `${kind}: ${method} ${url}`);
        tried += 1;
      }
      // The bearer scheme only: a token in another scheme or a cookie is not a session.
      const basic = await server.api(method, pathFor(url, fx), {
        ...exampleBody(method, url, fx),
        headers: {
          authorization: `Basic ${server.adminToken}`,
          cookie: `token=${server.adminToken}`,
        },
      });
      expectRefusal(basic, 401, SESSION_INVALID, `basic scheme: ${method} ${url}`);
      if (method === 'GET') {
        const head = await call('HEAD', url, null);
        expect(head.status, `HEAD ${url}`).toBe(401);
      }
    }
    expect(tried).toBe(GUARDED.length * Object.keys(badTokens).length);
    expect(await snapshot(server.database.db)).toEqual(before);
  });

  it('a client on admin routes and the admin on client routes get 403 and change nothing', async () => {
    const before = await snapshot(server.database.db);
    for (const [method, url, access] of GUARDED) {
      if (access === 'admin') {
        expectRefusal(
          await call(method, url, fx.a.token),
          403,
          FORBIDDEN,
          `client on ${method} ${url}`,
        );
      }
      if (access === 'client') {
        expectRefusal(
          await call(method, url, server.adminToken),
          403,
          FORBIDDEN,
          `admin on ${method} ${url}`,
        );
      }
    }
    expect(await snapshot(server.database.db)).toEqual(before);
  });
});

describe('ownership', () => {
  it("client A gets 404 on B's blast, exactly as for one that does not exist", async () => {
    const missing = crypto.randomUUID();
    for (const suffix of ['', '/cancel']) {
      const method = suffix ? 'POST' : 'GET';
      const before = await snapshot(server.database.db);
      const theirs = await server.api(method, `/api/client/blast-requests/${fx.blastId}${suffix}`, {
        token: fx.a.token,
      });
      const none = await server.api(method, `/api/client/blast-requests/${missing}${suffix}`, {
        token: fx.a.token,
      });
      expectRefusal(theirs, 404, 'Blast request tidak ditemukan', `${method} B's blast${suffix}`);
      expect(none.body).toEqual(theirs.body);
      expect(await snapshot(server.database.db)).toEqual(before);
    }
    const own = await server.api('GET', `/api/client/blast-requests/${fx.blastOfA}`, {
      token: fx.a.token,
    });
    expect([own.status, own.body.user_id]).toEqual([200, fx.a.user.id]);
  });

  it("A's lists, history and dashboard hold only A's rows, whatever the query asks", async () => {
    const q = `?page_size=100&user_id=${fx.b.user.id}&userId=${fx.b.user.id}`;
    const blasts = await server.api('GET', `/api/client/blast-requests${q}`, { token: fx.a.token });
    expect(blasts.body.items.map((b: any) => b.id)).toEqual([fx.blastOfA]);
    expect([blasts.body.total, blasts.body.summary.total]).toEqual([1, 1]);

    const requests = await server.api('GET', `/api/client/point-requests${q}`, {
      token: fx.a.token,
    });
    expect([requests.body.items, requests.body.total, requests.body.summary.pending]).toEqual([
      [],
      0,
      0,
    ]);

    const history = await server.api('GET', `/api/client/transactions${q}`, { token: fx.a.token });
    const me = await server.api('GET', '/api/auth/me', { token: fx.a.token });
    expect(history.body.summary.current_points).toBe(me.body.points);
    // A's ledger: the admin's balance edit and A's own blast, nothing of B's.
    expect(history.body.items.map((t: any) => t.type).sort()).toEqual(['adjustment', 'usage']);

    const dashboard = await server.api('GET', `/api/client/dashboard${q}`, { token: fx.a.token });
    expect(dashboard.body).toMatchObject({ total_blasts: 1, current_points: me.body.points });
    expect(me.body.id).toBe(fx.a.user.id);
  });

  it('a client gets only the QR the settings name; any other file is 404 like a missing one', async () => {
    const current = await server.api('GET', `/api/admin/qr-data/${fx.qrName}`, {
      token: fx.a.token,
    });
    expect(current.status).toBe(200);
    expect(current.body.data_url).toMatch(/^data:image\/png;base64,/);
    for (const name of [
      fx.otherQrName,
      fx.imageName,
      `${crypto.randomUUID()}.png`,
      '..%2F..%2Fsebar.sqlite',
    ]) {
      const answer = await server.api('GET', `/api/admin/qr-data/${name}`, { token: fx.a.token });
      expectRefusal(answer, 404, 'File QR tidak ditemukan', name);
    }
    const asAdmin = await server.api('GET', `/api/admin/qr-data/${fx.otherQrName}`, {
      token: server.adminToken,
    });
    expect(asAdmin.status).toBe(200);
  });
});

describe('unknown fields', () => {
  it('points, role, user_id, status and __proto__ are refused and never take effect', async () => {
    const { api, adminToken } = server;
    const before = await snapshot(server.database.db);
    const attempts: [string, string, string, unknown][] = [
      [
        'POST',
        '/api/admin/users',
        adminToken,
        // super_admin is a role the admin may give (item 10); an unknown one is refused.
        { username: 'x', email: 'x@sebar.test', password: 'rahasia-1', role: 'owner' },
      ],
      [
        'POST',
        '/api/admin/users',
        adminToken,
        { username: 'x', email: 'x@sebar.test', password: 'rahasia-1', points: 1000 },
      ],
      [
        'PUT',
        `/api/admin/users/${fx.a.user.id}`,
        adminToken,
        { username: 'a', email: fx.a.user.email, points: 50, is_active: true, role: 'super_admin' },
      ],
      [
        'POST',
        '/api/client/point-requests',
        fx.a.token,
        { points_requested: 5, amount_paid: 500, payment_proof_url: null, status: 'approved' },
      ],
      [
        'POST',
        '/api/client/point-requests',
        fx.a.token,
        { points_requested: 5, amount_paid: 500, payment_proof_url: null, user_id: fx.b.user.id },
      ],
      [
        'POST',
        '/api/client/blast-requests',
        fx.a.token,
        { message: 'x', target_numbers: ['081234567892'], image_url: null, points_used: 0 },
      ],
      [
        'POST',
        '/api/client/blast-requests',
        fx.a.token,
        { message: 'x', target_numbers: ['081234567892'], image_url: null, user_id: fx.b.user.id },
      ],
      [
        'POST',
        `/api/admin/blast-requests/${fx.blastId}/result`,
        adminToken,
        { successful_count: 1, failed_count: 0, no_wa_count: 0, status: 'rejected' },
      ],
      [
        'POST',
        '/api/auth/login',
        '',
        { email: fx.a.user.email, password: fx.a.password, role: 'super_admin' },
      ],
    ];
    for (const [method, url, token, body] of attempts) {
      const answer = await api(method, url, { token, body });
      expect(answer.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(422);
      expect(answer.body.detail).toMatch(/Kunci tidak dikenali|Role harus client atau super_admin/);
    }
    // __proto__ and constructor.prototype in raw JSON: refused by the parser, nothing polluted.
    const raw = [
      `{"title":"a","content":"b","__proto__":{"polluted":"ya"}}`,
      `{"title":"a","content":"b","constructor":{"prototype":{"polluted":"ya"}}}`,
    ];
    for (const text of raw) {
      const answer = await api('POST', '/api/admin/notes', {
        token: adminToken,
        raw: text,
        headers: { 'content-type': 'application/json' },
      });
      expectRefusal(answer, 400, 'Format JSON tidak valid', text);
    }
    const proto = await api('POST', '/api/client/blast-requests', {
      token: fx.a.token,
      raw: `{"message":"x","target_numbers":["081234567892"],"image_url":null,"__proto__":{"user_id":"${fx.b.user.id}"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await snapshot(server.database.db)).toEqual(before);
    const me = await api('GET', '/api/auth/me', { token: fx.a.token });
    const row = before.rows.users!.find((u: any) => u.id === fx.a.user.id) as any;
    expect([me.body.role, me.body.points]).toEqual(['client', row.points]);
  });
});

describe('allowed roles', () => {
  // Last: these calls succeed and change data (B is deleted at the end).
  it('every route lets its own roles through (the table is not stricter than the server)', async () => {
    for (const [method, url, access, ownership] of ROUTES) {
      if (ownership === 'signed') continue;
      const tokens =
        access === 'admin'
          ? [server.adminToken]
          : access === 'client'
            ? [fx.a.token]
            : access === 'user'
              ? [server.adminToken, fx.a.token]
              : [null];
      for (const token of tokens) {
        const answer = await call(method, url, token);
        expect(
          [401, 403],
          `${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`,
        ).not.toContain(answer.status);
        expect(answer.status, `${method} ${url}`).toBeLessThan(500);
      }
    }
  });
});
