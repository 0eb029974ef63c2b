// The same walk with hostile input at every step: wrong types, missing and unknown fields, bad
// numbers, huge strings, broken bodies, foreign and unknown ids, wrong or missing tokens. Each
// answers 4xx with an Indonesian `detail` and nothing internal, and the database is unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '#server/db/ledger-check.ts';
import { startServer, type TestServer } from './helpers.ts';
import { expectCleanError, expectUnchanged } from './spec.ts';

let server: TestServer;
let admin = '';
let budi = { id: '', token: '' };
let siti = { id: '', token: '' };
const ids: Record<string, string> = {};
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const HUGE = 'x'.repeat(1_000_000);

beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
  const ok = async (method: string, url: string, token: string, body?: unknown) => {
    const answer = await server.api(method, url, { token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body;
  };
  ids.tier = (
    await ok('POST', '/api/admin/pricing', admin, {
      tier_name: 'Dasar',
      min_points: 1,
      max_points: 1000,
      price_per_point: 600,
    })
  ).id;
  const b = await server.createClient({ username: 'budi' });
  const s = await server.createClient({ username: 'siti' });
  budi = { id: b.user.id, token: b.token };
  siti = { id: s.user.id, token: s.token };
  for (const client of [budi, siti]) {
    const request = await ok('POST', '/api/client/point-requests', client.token, {
      points_requested: 50,
      amount_paid: 30000,
      payment_proof_url: null,
    });
    await ok('POST', `/api/admin/point-requests/${request.id}/approve`, admin);
  }
  ids.pendingRequest = (
    await ok('POST', '/api/client/point-requests', budi.token, {
      points_requested: 10,
      amount_paid: 6000,
      payment_proof_url: null,
    })
  ).id;
  ids.blast = (
    await ok('POST', '/api/client/blast-requests', budi.token, {
      message: 'Halo',
      target_numbers: ['081234567801', '081234567802', '081234567803'],
      image_url: null,
    })
  ).id;
  ids.completed = (
    await ok('POST', '/api/client/blast-requests', budi.token, {
      message: 'Selesai',
      target_numbers: ['081234567811', '081234567812'],
      image_url: null,
    })
  ).id;
  await ok('POST', `/api/admin/blast-requests/${ids.completed}/result`, admin, {
    successful_count: 1,
    failed_count: 1,
    no_wa_count: 0,
    admin_notes: null,
  });
  ids.contact = (
    await ok('POST', '/api/admin/contacts', admin, { platform: 'telegram', value: '@sebar' })
  ).id;
  ids.note = (await ok('POST', '/api/admin/notes', admin, { title: 'A', content: 'B' })).id;
});
afterAll(() => server?.close());

type Kind = 'string' | 'int' | 'number' | 'bool' | 'numbers' | 'statuses';
interface Field {
  kind: Kind;
  required: boolean;
  /** Values of the right JSON type that the rules still refuse. */
  refused?: unknown[];
}

const WRONG_TYPES: Record<Kind, unknown[]> = {
  // A NUL character is refused on both engines (PostgreSQL cannot store one).
  string: [123, true, {}, [], ['a'], 'nul\u0000byte'],
  int: ['10', true, {}, [], null, -1, 1.5, 1e21, 2 ** 53],
  number: ['10', true, {}, [], null, -1, 1e21],
  bool: ['true', 1, 0, {}, [], null],
  numbers: [
    '081234567890',
    81234567890,
    {},
    [],
    [81234567890],
    [null],
    [HUGE],
    ['081234567890\u0000'],
    null,
  ],
  statuses: [[], 'x', { 0: 'sent' }, { x: 'success' }, { '-1': 'failed' }, { 9999: 'no_wa' }, null],
};
const UNKNOWN_FIELDS = ['points', 'role', 'user_id', 'status', 'id', 'is_admin', 'balance'];

interface Step {
  method: string;
  url: string;
  token: string;
  body: Record<string, unknown>;
  fields: Record<string, Field>;
}

/** Every hostile variant of one call, each expected to be refused cleanly. */
async function attack({ method, url, token, body, fields }: Step) {
  const send = (options: Parameters<TestServer['api']>[2]) =>
    server.api(method, url, { token, ...options });
  const json = { 'content-type': 'application/json' };
  const answers: { label: string; answer: Awaited<ReturnType<typeof send>> }[] = [];
  const tryIt = async (label: string, options: Parameters<TestServer['api']>[2]) =>
    answers.push({ label, answer: await send(options) });

  await tryIt('no body', {});
  await tryIt('empty JSON body', { raw: '', headers: json });
  await tryIt('malformed JSON', { raw: '{"message": "x",', headers: json });
  await tryIt('prototype pollution', {
    raw: JSON.stringify(body).replace(/^\{/, '{"__proto__":{"points":999},'),
    headers: json,
  });
  await tryIt('plain text', { raw: 'points=999', headers: { 'content-type': 'text/plain' } });
  await tryIt('form body', {
    raw: 'points=999',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  for (const raw of [[], null, 'x', 42, [body]])
    await tryIt(`body ${JSON.stringify(raw)}`, { body: raw });
  // Settings carry an inline QR image and accept up to 8 MB; every other call 1 MB.
  const limit = url === '/api/admin/settings' ? 8 : 1;
  await tryIt('body over the limit', {
    body: { ...body, filler: 'y'.repeat(limit * 1024 * 1024 + 100) },
  });
  for (const [name, field] of Object.entries(fields)) {
    if (field.required) {
      const rest = Object.fromEntries(Object.entries(body).filter(([key]) => key !== name));
      await tryIt(`missing ${name}`, { body: rest });
    }
    for (const value of [...WRONG_TYPES[field.kind], ...(field.refused ?? [])])
      await tryIt(`${name} = ${JSON.stringify(value)?.slice(0, 40)}`, {
        body: { ...body, [name]: value },
      });
    if (field.kind === 'string')
      await tryIt(`${name} of 1e6 characters`, { body: { ...body, [name]: HUGE } });
  }
  for (const name of UNKNOWN_FIELDS.filter((n) => !(n in fields))) {
    await tryIt(`unknown field ${name}`, {
      body: { ...body, [name]: name === 'role' ? 'super_admin' : 999 },
    });
  }
  // A missing body or field is named plainly, not as zod's "diterima undefined/null".
  expect(answers[0]!.answer.body.detail).toBe('Data harus diisi');
  for (const { label, answer } of answers) {
    try {
      expectCleanError(answer, label === 'body over the limit' ? 413 : undefined);
    } catch (error) {
      throw new Error(`${method} ${url} with ${label}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Without a token, with a broken one, and with the other role's token. */
async function wrongCallers(method: string, url: string, body: unknown, otherRole: string) {
  const forged = `${admin.split('.')[0]}.${Buffer.from(
    JSON.stringify({ sub: budi.id, ver: 0, role: 'super_admin' }),
  ).toString('base64url')}.${admin.split('.')[2]}`;
  for (const token of [null, 'garbage-token-value', forged, `${admin}x`]) {
    expectCleanError(await server.api(method, url, { token, body }), 401);
  }
  const wrong = await server.api(method, url, { token: otherRole, body });
  expectCleanError(wrong, 403);
  expect(wrong.body.detail).toBe('Anda tidak memiliki akses ke halaman ini');
}

describe('hostile input at every step of the walk', () => {
  it('sign-in', async () => {
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: '/api/auth/login',
        token: '',
        body: { email: 'admin@sebar.test', password: 'salah-sekali' },
        fields: {
          email: { kind: 'string', required: true, refused: [''] },
          password: { kind: 'string', required: true, refused: [''] },
        },
      });
      for (const body of [
        { email: 'admin@sebar.test', password: 'salah' },
        { email: 'tidak-ada@sebar.test', password: 'admin-rahasia-123' },
        { email: "admin@sebar.test' or '1'='1", password: "' or '1'='1" },
      ]) {
        const answer = await server.api('POST', '/api/auth/login', { body });
        expectCleanError(answer, 401);
        expect(answer.body.detail).toBe('Email atau password salah');
      }
    });
  });

  it('settings', async () => {
    const body = {
      account_number: '123',
      account_name: 'PT Sebar',
      bank_name: 'BCA',
      barcode_url: null,
      qr_code_file: null,
      qr_data_url: null,
      allow_images: false,
    };
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: '/api/admin/settings',
        token: admin,
        body,
        fields: {
          account_number: { kind: 'string', required: true, refused: ['', '   '] },
          account_name: { kind: 'string', required: true, refused: [''] },
          bank_name: { kind: 'string', required: true, refused: [''] },
          qr_data_url: {
            kind: 'string',
            required: false,
            refused: [
              'javascript:alert(1)',
              'data:text/html;base64,PHNjcmlwdD4=',
              'data:image/svg+xml;base64,PHN2Zz4=',
            ],
          },
          allow_images: { kind: 'bool', required: false },
        },
      });
      await wrongCallers('POST', '/api/admin/settings', body, budi.token);
    });
  });

  it('price tiers', async () => {
    const body = { tier_name: 'Besar', min_points: 1001, max_points: 2000, price_per_point: 500 };
    const int = (refused: unknown[] = []): Field => ({ kind: 'int', required: true, refused });
    const fields = {
      tier_name: { kind: 'string', required: true, refused: ['', '  '] } as Field,
      min_points: int([0, 2001]),
      max_points: int([0, 1000]),
      price_per_point: { kind: 'number', required: true, refused: [0, -0.5] } as Field,
    };
    await expectUnchanged(server.database.db, async () => {
      await attack({ method: 'POST', url: '/api/admin/pricing', token: admin, body, fields });
      await attack({
        method: 'PUT',
        url: `/api/admin/pricing/${ids.tier}`,
        token: admin,
        body,
        fields,
      });
      await wrongCallers('POST', '/api/admin/pricing', body, budi.token);
      for (const method of ['PUT', 'DELETE'])
        expectCleanError(
          await server.api(method, `/api/admin/pricing/${MISSING_ID}`, {
            token: admin,
            body: method === 'PUT' ? body : undefined,
          }),
          404,
        );
    });
  });

  it('client accounts', async () => {
    const create = {
      username: 'baru',
      email: 'baru@sebar.test',
      password: 'rahasia1',
      role: 'client',
    };
    const edit = { username: 'budi', email: 'budi@sebar.test', points: 50, is_active: true };
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: '/api/admin/users',
        token: admin,
        body: create,
        fields: {
          username: { kind: 'string', required: true, refused: ['', '   '] },
          email: { kind: 'string', required: true, refused: ['bukan-email', 'a@', ''] },
          password: { kind: 'string', required: true, refused: ['12345', ''] },
          // super_admin is allowed: the admin may add administrators (issue 26, item 10).
          role: { kind: 'string', required: false, refused: ['owner', 'admin'] },
        },
      });
      await attack({
        method: 'PUT',
        url: `/api/admin/users/${budi.id}`,
        token: admin,
        body: edit,
        fields: {
          username: { kind: 'string', required: true, refused: [''] },
          email: { kind: 'string', required: true, refused: ['x'] },
          points: { kind: 'int', required: true },
          is_active: { kind: 'bool', required: true },
        },
      });
      await attack({
        method: 'PUT',
        url: `/api/admin/users/${budi.id}/password`,
        token: admin,
        body: { new_password: 'rahasia-baru' },
        fields: { new_password: { kind: 'string', required: true, refused: ['', '12345'] } },
      });
      // The admin's own account and unknown ids are not clients.
      const adminId = (await server.api('GET', '/api/auth/me', { token: admin })).body.id;
      for (const id of [adminId, MISSING_ID]) {
        expectCleanError(
          await server.api('PUT', `/api/admin/users/${id}`, { token: admin, body: edit }),
          404,
        );
        expectCleanError(
          await server.api('PUT', `/api/admin/users/${id}/password`, {
            token: admin,
            body: { new_password: 'rahasia-baru' },
          }),
          404,
        );
        expectCleanError(
          await server.api('DELETE', `/api/admin/users/${id}`, { token: admin }),
          404,
        );
      }
      await wrongCallers('POST', '/api/admin/users', create, budi.token);
      await wrongCallers(
        'PUT',
        `/api/admin/users/${siti.id}`,
        { ...edit, points: 1e6 },
        budi.token,
      );
    });
  });

  it('top-up requests', async () => {
    const body = { points_requested: 10, amount_paid: 6000, payment_proof_url: null };
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: '/api/client/point-requests',
        token: budi.token,
        body,
        fields: {
          points_requested: { kind: 'int', required: true, refused: [0, 2_000_000] },
          amount_paid: { kind: 'number', required: true, refused: [0, 1, 5999, 6000.5] },
          payment_proof_url: {
            kind: 'string',
            required: false,
            refused: ['javascript:alert(1)', 'ftp://x', 'bukan url'],
          },
        },
      });
      await wrongCallers('POST', '/api/client/point-requests', body, admin);
    });
  });

  it('top-up decisions', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const action of ['approve', 'reject']) {
        const url = `/api/admin/point-requests/${ids.pendingRequest}/${action}`;
        await wrongCallers('POST', url, undefined, budi.token);
        for (const id of [
          MISSING_ID,
          "1' or '1'='1",
          '..%2F..%2Fetc',
          'a%00b',
          '%E0%A4%A',
          'x'.repeat(65),
          'x'.repeat(400),
        ]) {
          expectCleanError(
            await server.api('POST', `/api/admin/point-requests/${id}/${action}`, { token: admin }),
          );
        }
        expectCleanError(
          await server.api('POST', url, {
            token: admin,
            raw: '{',
            headers: { 'content-type': 'application/json' },
          }),
          400,
        );
      }
    });
  });

  it('blast creation', async () => {
    const body = { message: 'Halo', target_numbers: ['081234567899'], image_url: null };
    const fields: Record<string, Field> = {
      message: { kind: 'string', required: true, refused: ['', '   ', 'x'.repeat(1001)] },
      target_numbers: {
        kind: 'numbers',
        required: true,
        refused: [
          ['12345'],
          ['081234567899', 'abc'],
          Array.from({ length: 501 }, (_, i) => `0812${String(i).padStart(8, '0')}`),
          Array.from({ length: 51 }, (_, i) => `0813${String(i).padStart(8, '0')}`),
        ],
      },
      image_url: {
        kind: 'string',
        required: false,
        refused: [
          'https://evil.test/x.png',
          '/uploads/../sebar.sqlite',
          `/uploads/${MISSING_ID}.png`,
        ],
      },
    };
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: '/api/client/blast-requests',
        token: budi.token,
        body,
        fields,
      });
      for (const key of ['', 'a b', 'x'.repeat(101), 'kunci-\u00e9', "'; drop table blasts; --"]) {
        const answer = await server.api('POST', '/api/client/blast-requests', {
          token: budi.token,
          body,
          headers: { 'idempotency-key': key },
        });
        expectCleanError(answer, 422);
      }
      await wrongCallers('POST', '/api/client/blast-requests', body, admin);
    });
  });

  it('results, per-number statuses, reject and cancel', async () => {
    const result = { successful_count: 1, failed_count: 1, no_wa_count: 0, admin_notes: null };
    const count = (refused: unknown[]): Field => ({ kind: 'int', required: true, refused });
    await expectUnchanged(server.database.db, async () => {
      await attack({
        method: 'POST',
        url: `/api/admin/blast-requests/${ids.blast}/result`,
        token: admin,
        body: result,
        fields: {
          successful_count: count([3, 501]),
          failed_count: count([3]),
          no_wa_count: count([2]),
          admin_notes: { kind: 'string', required: false },
        },
      });
      await attack({
        method: 'POST',
        url: `/api/admin/blast-requests/${ids.blast}/number-statuses`,
        token: admin,
        body: { number_statuses: { 0: 'success' } },
        fields: {
          number_statuses: { kind: 'statuses', required: true, refused: [{}, { 3: 'failed' }] },
        },
      });
      await wrongCallers(
        'POST',
        `/api/admin/blast-requests/${ids.blast}/result`,
        result,
        budi.token,
      );
      await wrongCallers(
        'POST',
        `/api/admin/blast-requests/${ids.blast}/reject`,
        undefined,
        budi.token,
      );
      await wrongCallers(
        'POST',
        `/api/client/blast-requests/${ids.blast}/cancel`,
        undefined,
        admin,
      );
      for (const url of [
        `/api/admin/blast-requests/${MISSING_ID}/result`,
        `/api/admin/blast-requests/${MISSING_ID}/number-statuses`,
        `/api/admin/blast-requests/${MISSING_ID}/reject`,
        `/api/client/blast-requests/${MISSING_ID}/cancel`,
      ]) {
        const body = url.endsWith('result')
          ? result
          : url.endsWith('statuses')
            ? { number_statuses: { 0: 'failed' } }
            : undefined;
        const token = url.includes('/client/') ? budi.token : admin;
        expectCleanError(await server.api('POST', url, { token, body }), 404);
      }
      // A completed blast cannot be rejected or cancelled.
      expectCleanError(
        await server.api('POST', `/api/admin/blast-requests/${ids.completed}/reject`, {
          token: admin,
        }),
        409,
      );
      expectCleanError(
        await server.api('POST', `/api/client/blast-requests/${ids.completed}/cancel`, {
          token: budi.token,
        }),
        409,
      );
    });
  });

  it("another client's ids answer 404 and reveal nothing", async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/cancel'],
      ] as const) {
        const foreign = await server.api(
          method,
          `/api/client/blast-requests/${ids.blast}${suffix}`,
          {
            token: siti.token,
          },
        );
        const missing = await server.api(
          method,
          `/api/client/blast-requests/${MISSING_ID}${suffix}`,
          {
            token: siti.token,
          },
        );
        expectCleanError(foreign, 404);
        expect(foreign.body).toEqual(missing.body);
        expect(JSON.stringify(foreign.body)).not.toContain('budi');
      }
      for (const url of [
        '/api/client/blast-requests',
        '/api/client/point-requests',
        '/api/client/transactions',
      ]) {
        const page = (await server.api('GET', `${url}?page_size=100`, { token: siti.token })).body;
        expect(JSON.stringify(page)).not.toContain(budi.id);
        expect(JSON.stringify(page)).not.toContain(ids.blast);
      }
      // Query strings cannot widen a client's list either.
      const widened = await server.api('GET', `/api/client/blast-requests?user_id=${budi.id}`, {
        token: siti.token,
      });
      expect(JSON.stringify(widened.body)).not.toContain(ids.blast);
    });
  });

  it('bad query strings on every list', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [url, token] of [
        ['/api/admin/users', admin],
        ['/api/admin/point-requests', admin],
        ['/api/admin/blast-requests', admin],
        ['/api/client/blast-requests', budi.token],
        ['/api/client/point-requests', budi.token],
        ['/api/client/transactions', budi.token],
      ] as const) {
        for (const query of [
          'page=abc',
          'page=0',
          'page=-1',
          'page=1.5',
          'page_size=0',
          'page_size=101',
          'page_size=1e9',
          'page=99999999999',
        ]) {
          expectCleanError(await server.api('GET', `${url}?${query}`, { token }), 422);
        }
        if (!url.endsWith('transactions') && !url.endsWith('users'))
          expectCleanError(await server.api('GET', `${url}?status=evil`, { token }), 422);
      }
    });
  });

  it('says what is wrong with a query string or a body in Indonesian, naming the field', async () => {
    await expectUnchanged(server.database.db, async () => {
      const detail = async (url: string, body?: object) =>
        (await server.api(body ? 'POST' : 'GET', url, { token: admin, body })).body.detail;
      expect(await detail('/api/admin/blast-requests?page=abc')).toBe('page harus berupa angka');
      expect(await detail('/api/admin/blast-requests?page=1.5')).toBe(
        'page harus berupa bilangan bulat',
      );
      expect(await detail('/api/admin/blast-requests?page=0')).toBe('page minimal 1');
      expect(await detail('/api/admin/users?page_size=101')).toBe('page_size maksimal 100');
      expect(
        await detail('/api/admin/users', {
          username: 'Baru',
          email: 'baru@example.com',
          password: 'Rahasia123',
          points: 500,
          phone: '0812',
        }),
      ).toBe('Kunci tidak dikenali: "points", "phone"');
    });
  });

  it('contacts and notes', async () => {
    await expectUnchanged(server.database.db, async () => {
      const contact = { platform: 'whatsapp', value: '081234567890', is_active: true };
      const contactFields: Record<string, Field> = {
        platform: { kind: 'string', required: true, refused: ['myspace', ''] },
        value: { kind: 'string', required: true, refused: ['', '   '] },
        is_active: { kind: 'bool', required: false },
      };
      await attack({
        method: 'POST',
        url: '/api/admin/contacts',
        token: admin,
        body: contact,
        fields: contactFields,
      });
      await attack({
        method: 'PUT',
        url: `/api/admin/contacts/${ids.contact}`,
        token: admin,
        body: contact,
        fields: contactFields,
      });
      const note = { title: 'Judul', content: 'Isi' };
      const noteFields: Record<string, Field> = {
        title: { kind: 'string', required: true, refused: ['', ' \n\t '] },
        content: { kind: 'string', required: true, refused: ['   '] },
      };
      await attack({
        method: 'POST',
        url: '/api/admin/notes',
        token: admin,
        body: note,
        fields: noteFields,
      });
      await attack({
        method: 'PUT',
        url: `/api/admin/notes/${ids.note}`,
        token: admin,
        body: note,
        fields: noteFields,
      });
      await wrongCallers('POST', '/api/admin/contacts', contact, budi.token);
      await wrongCallers('DELETE', `/api/admin/notes/${ids.note}`, undefined, budi.token);
    });
  });

  it('every /api route refuses missing, broken and wrong-role tokens', async () => {
    const fill = (url: string) => url.replace(':id', ids.blast!).replace(':filename', 'x.png');
    await expectUnchanged(server.database.db, async () => {
      for (const route of server.routes) {
        if (!route.url.startsWith('/api') || route.method === 'HEAD' || route.access === 'public')
          continue;
        const url = fill(route.url);
        expectCleanError(await server.api(route.method, url, {}), 401);
        expectCleanError(await server.api(route.method, url, { token: 'a.b.c-not-a-token' }), 401);
        if (route.access === 'admin')
          expectCleanError(await server.api(route.method, url, { token: budi.token }), 403);
        if (route.access === 'client')
          expectCleanError(await server.api(route.method, url, { token: admin }), 403);
      }
    });
  });
});

describe('after every attack', () => {
  it('the same calls with their valid bodies still work and the ledger holds', async () => {
    const ok = async (method: string, url: string, token: string, body?: unknown) => {
      const answer = await server.api(method, url, { token, body });
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      return answer.body;
    };
    const request = await ok('POST', '/api/client/point-requests', budi.token, {
      points_requested: 10,
      amount_paid: 6000,
      payment_proof_url: null,
    });
    await ok('POST', `/api/admin/point-requests/${request.id}/approve`, admin);
    const created = await ok('POST', '/api/client/blast-requests', budi.token, {
      message: 'Halo',
      target_numbers: ['081234567899'],
      image_url: null,
    });
    await ok('POST', `/api/admin/blast-requests/${created.id}/result`, admin, {
      successful_count: 1,
      failed_count: 0,
      no_wa_count: 0,
      admin_notes: null,
    });
    const me = await ok('GET', '/api/auth/me', budi.token);
    expect(me.points).toBe(50 - 3 - 2 + 1 + 10 - 1);
    expect(await checkLedger(server.database.db)).toEqual([]);
  });
});
