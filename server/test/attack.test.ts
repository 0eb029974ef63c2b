// Attacks that earlier suites missed: rows deleted while other requests use them, uploads left
// behind, another client's image, two files in one upload, racing tier ranges, requests Node's
// parser refuses, lone surrogates, huge validation errors, odd auth schemes and numeric params.
// Each answers a 4xx `{detail}` in Indonesian, never a 5xx, and the ledger holds throughout.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '#server/db/sqlite.ts';
import { checkLedger } from '#server/db/ledger-check.ts';
import { createBlast } from '#server/modules/blasts/blast-creation.service.ts';
import { createPointRequest, listTransactions } from '#server/modules/points/points.service.ts';
import { diskStore } from '#server/modules/uploads/file-store.ts';
import { storeImage } from '#server/modules/uploads/uploads.service.ts';
import { startServer, type TestServer } from './helpers.ts';
import {
  burst,
  pick,
  phoneNumbers,
  seededRandom,
  seedFrom,
  statusCounts,
  type HttpAnswer,
  type RequestSpec,
} from './processes.ts';
import { form, settingsBody, tinyPng } from './routes.ts';
import { expectCleanError } from './spec.ts';

let server: TestServer;
let admin = '';
let png: Buffer;
type Account = Awaited<ReturnType<TestServer['createClient']>>;

beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
  png = await tinyPng();
  await ok('POST', '/api/admin/pricing', admin, {
    tier_name: 'Semua',
    min_points: 1,
    max_points: 100_000,
    price_per_point: 100,
  });
  await ok('POST', '/api/admin/settings', admin, {
    account_number: '1234567890',
    account_name: 'PT Sebar',
    bank_name: 'BCA',
    allow_images: true,
  });
});
afterAll(() => server?.close());
afterEach(async () => {
  expect(await checkLedger(server.database.db)).toEqual([]);
});

async function ok(method: string, url: string, token: string, body?: unknown) {
  const answer = await server.api(method, url, { token, body });
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** A new client holding `points` (an admin balance edit). */
async function funded(points: number): Promise<Account> {
  const account = await server.createClient();
  await ok('PUT', `/api/admin/users/${account.user.id}`, admin, {
    username: account.user.username,
    email: account.user.email,
    points,
    is_active: true,
  });
  return account;
}

const spec = (method: string, url: string, token: string, body?: unknown): RequestSpec => ({
  url: server.url,
  method,
  path: url,
  token,
  body,
});

/**
 * No answer is a 5xx or missing, every error is a clean Indonesian `{detail}`, and a blast refused
 * for its balance names a balance that was short.
 */
function expectNoServerError(answers: HttpAnswer[], specs: RequestSpec[]) {
  answers.forEach((answer, i) => {
    const what = `${specs[i]!.method} ${specs[i]!.path}: ${answer.status} ${answer.text}`;
    expect(answer.status, what).toBeGreaterThanOrEqual(200);
    expect(answer.status, what).toBeLessThan(500);
    if (answer.status >= 400) expect(typeof answer.body?.detail, what).toBe('string');
    // id-ID figures: '1.500' is fifteen hundred.
    const short = /membutuhkan ([\d.]+) poin, tetapi hanya memiliki ([\d.]+) poin/.exec(
      answer.body?.detail ?? '',
    );
    const figure = (text: string) => Number(text.replaceAll('.', ''));
    if (short) expect(figure(short[2]!), what).toBeLessThan(figure(short[1]!));
  });
}

describe('deletion races', () => {
  it('a client deleted after its request passed the token check gets a 404, not a 500', async () => {
    // The guard read the user, then the admin's delete committed: what the service sees next.
    const gone = await funded(10);
    await ok('DELETE', `/api/admin/users/${gone.user.id}`, admin);
    const blast = { message: 'Halo', target_numbers: ['081234567890'], image_url: null };
    for (const key of [null, 'kunci-1']) {
      await expect(createBlast(server.database, gone.user.id, blast, key)).rejects.toMatchObject({
        statusCode: 404,
        detail: 'Klien tidak ditemukan',
      });
    }
    await expect(
      createPointRequest(server.database, gone.user.id, {
        points_requested: 5,
        amount_paid: 500,
        payment_proof_url: null,
      }),
    ).rejects.toMatchObject({ statusCode: 404, detail: 'Klien tidak ditemukan' });
    await expect(
      listTransactions(server.database, gone.user.id, { page: 1, page_size: 5 }),
    ).rejects.toMatchObject({ statusCode: 404, detail: 'Klien tidak ditemukan' });
  });

  it('deleting a client while its blasts, top-ups, approvals, results and edits are in flight', async () => {
    for (let round = 0; round < 3; round += 1) {
      const victim = await funded(100);
      const pendingTopUp = await ok('POST', '/api/client/point-requests', victim.token, {
        points_requested: 10,
        amount_paid: 1000,
        payment_proof_url: null,
      });
      const blast = await ok('POST', '/api/client/blast-requests', victim.token, {
        message: 'Pesan',
        target_numbers: phoneNumbers(3, round * 10),
        image_url: null,
      });
      const id = victim.user.id;
      const specs: RequestSpec[] = [
        spec('DELETE', `/api/admin/users/${id}`, admin),
        spec('DELETE', `/api/admin/users/${id}`, admin),
        spec('POST', `/api/admin/point-requests/${pendingTopUp.id}/approve`, admin),
        spec('POST', `/api/admin/blast-requests/${blast.id}/result`, admin, {
          successful_count: 1,
          failed_count: 1,
          no_wa_count: 1,
          admin_notes: null,
        }),
        spec('POST', `/api/admin/blast-requests/${blast.id}/number-statuses`, admin, {
          number_statuses: { '0': 'failed' },
        }),
        spec('PUT', `/api/admin/users/${id}`, admin, {
          username: victim.user.username,
          email: victim.user.email,
          points: 7,
          is_active: true,
        }),
        spec('PUT', `/api/admin/users/${id}/password`, admin, { new_password: 'sandi-baru-1' }),
        spec('GET', '/api/client/transactions', victim.token),
        spec('GET', '/api/client/dashboard', victim.token),
        ...Array.from({ length: 6 }, (_, i) =>
          spec('POST', '/api/client/blast-requests', victim.token, {
            message: `Pesan ${i}`,
            target_numbers: phoneNumbers(2, 100 + i * 2),
            image_url: null,
          }),
        ),
        ...Array.from({ length: 4 }, () =>
          spec('POST', '/api/client/point-requests', victim.token, {
            points_requested: 5,
            amount_paid: 500,
            payment_proof_url: null,
          }),
        ),
      ];
      // The delete at every position: before, among and after the requests on its rows.
      const at = round * 6;
      const order = [...specs.slice(1, at + 1), specs[0]!, ...specs.slice(at + 1)];
      const answers = await burst(order);
      expectNoServerError(answers, order);
      expect(statusCounts(answers.filter((_, i) => order[i]!.method === 'DELETE'))).toEqual({
        200: 1,
        404: 1,
      });
      const left = await server.database.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .execute();
      expect(left).toEqual([]);
    }
  });

  it('tiers, contacts and notes deleted while being edited answer 404', async () => {
    for (let round = 0; round < 3; round += 1) {
      const tier = await ok('POST', '/api/admin/pricing', admin, {
        tier_name: `Hapus ${round}`,
        min_points: 200_000 + round * 10,
        max_points: 200_005 + round * 10,
        price_per_point: 90,
      });
      const contact = await ok('POST', '/api/admin/contacts', admin, {
        platform: 'telegram',
        value: '@sebar',
      });
      const note = await ok('POST', '/api/admin/notes', admin, { title: 'A', content: 'B' });
      const specs = [
        spec('DELETE', `/api/admin/pricing/${tier.id}`, admin),
        spec('PUT', `/api/admin/pricing/${tier.id}`, admin, {
          tier_name: 'Baru',
          min_points: 200_000 + round * 10,
          max_points: 200_006 + round * 10,
          price_per_point: 95,
        }),
        spec('DELETE', `/api/admin/contacts/${contact.id}`, admin),
        spec('PUT', `/api/admin/contacts/${contact.id}`, admin, {
          platform: 'email',
          value: 'a@b.id',
          is_active: true,
        }),
        spec('DELETE', `/api/admin/notes/${note.id}`, admin),
        spec('PUT', `/api/admin/notes/${note.id}`, admin, { title: 'C', content: 'D' }),
      ];
      const order = round % 2 ? specs.reverse() : specs;
      const answers = await burst(order);
      expectNoServerError(answers, order);
      for (const answer of answers) expect([200, 404]).toContain(answer.status);
    }
  });
});

describe('uploads left behind', () => {
  const onDisk = (url: string) =>
    fs.existsSync(path.join(server.context.uploadsDir, path.basename(url)));

  const uploadQr = async () =>
    (await server.api('POST', '/api/admin/upload-qr', { token: admin, raw: form('file', png) }))
      .body as { file_url: string; data_url: string };
  const saveQr = (qr: { file_url: string; data_url: string } | null) =>
    ok('POST', '/api/admin/settings', admin, settingsBody(qr));
  const rowOf = (url: string) =>
    server.database.db
      .selectFrom('uploads')
      .select('name')
      .where('name', '=', path.basename(url))
      .execute();

  it('a QR replaced or cleared in the settings is removed, file and row', async () => {
    const first = await uploadQr();
    await saveQr(first);
    await saveQr(first);
    // The same file named by a full address is still named (the QR fallback reads it so).
    await saveQr({ ...first, file_url: `https://sebar.example${first.file_url}` });
    expect(onDisk(first.file_url)).toBe(true);
    const second = await uploadQr();
    await saveQr(second);
    expect(onDisk(first.file_url)).toBe(false);
    expect(await rowOf(first.file_url)).toEqual([]);
    expect(onDisk(second.file_url)).toBe(true);
    expect((await fetch(`${server.url}${second.file_url}`)).status).toBe(200);
    await saveQr(null);
    expect(onDisk(second.file_url)).toBe(false);
    expect(await rowOf(second.file_url)).toEqual([]);
  });

  it('of two settings saves at once naming new QRs, the one overwritten is removed too', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = [await uploadQr(), await uploadQr()];
      const specs = [a, b].map((qr) =>
        spec('POST', '/api/admin/settings', admin, settingsBody(qr)),
      );
      expectNoServerError(await burst(specs), specs);
      const named = (await server.api('GET', '/api/admin/settings', { token: admin })).body
        .qr_code_file as string;
      const qrs = await server.database.db
        .selectFrom('uploads')
        .select('name')
        .where('kind', '=', 'qr')
        .execute();
      expect(qrs.map((row) => `/uploads/${row.name}`)).toEqual([named]);
      expect([a.file_url, b.file_url].filter(onDisk)).toEqual([named]);
    }
  });

  it('a file whose row could not be written is removed again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-orphan-'));
    // A database without the uploads table: the insert after the file write fails.
    const broken = openSqlite(path.join(dir, 'leer.sqlite'));
    const uploads = path.join(dir, 'uploads');
    try {
      await expect(storeImage(broken, diskStore(uploads), png, 'image', 'x')).rejects.toThrow();
      expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
    } finally {
      await broken.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a deleted client's uploaded images are removed", async () => {
    const owner = await funded(5);
    const image = (
      await server.api('POST', '/api/upload/image', { token: owner.token, raw: form('image', png) })
    ).body.url as string;
    await ok('POST', '/api/client/blast-requests', owner.token, {
      message: 'Dengan gambar',
      target_numbers: ['081234567890'],
      image_url: image,
    });
    expect(onDisk(image)).toBe(true);
    await ok('DELETE', `/api/admin/users/${owner.user.id}`, admin);
    expect(onDisk(image)).toBe(false);
    expect((await fetch(`${server.url}${image}`)).status).toBe(404);
  });

  it('an image whose client was deleted during its upload is not kept', async () => {
    const owner = await funded(5);
    await ok('DELETE', `/api/admin/users/${owner.user.id}`, admin);
    // The upload passed its token check before the deletion; its row is written after it.
    const { uploadsDir } = server.context;
    const files = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).toSorted() : []);
    const before = files();
    await expect(
      storeImage(server.database, server.context.files, png, 'image', owner.user.id),
    ).rejects.toMatchObject({ statusCode: 404 });
    const rows = await server.database.db
      .selectFrom('uploads')
      .select('name')
      .where('user_id', '=', owner.user.id)
      .execute();
    expect(rows).toEqual([]);
    expect(files()).toEqual(before);
  });
});

describe("another client's image", () => {
  it('a blast may only name an image its own client uploaded', async () => {
    const [owner, thief] = [await funded(5), await funded(5)];
    const upload = async (token: string) =>
      (await server.api('POST', '/api/upload/image', { token, raw: form('image', png) })).body
        .url as string;
    const theirs = await upload(owner.token);
    const adminImage = await upload(admin);
    const qr = (
      await server.api('POST', '/api/admin/upload-qr', { token: admin, raw: form('file', png) })
    ).body.file_url as string;
    for (const image_url of [theirs, adminImage, qr, `${server.url}${theirs}`]) {
      const answer = await server.api('POST', '/api/client/blast-requests', {
        token: thief.token,
        body: { message: 'Halo', target_numbers: ['081234567890'], image_url },
      });
      expectCleanError(answer, 422);
      expect(answer.body.detail, image_url).toBe(
        'Gambar tidak ditemukan. Upload ulang gambar Anda.',
      );
    }
    const own = await upload(thief.token);
    await ok('POST', '/api/client/blast-requests', thief.token, {
      message: 'Halo',
      target_numbers: ['081234567890'],
      image_url: own,
    });
  });
});

describe('multipart with more than one file or image field', () => {
  const send = (data: FormData, url = '/api/upload/image', token?: string) =>
    server.api('POST', url, { token: token ?? admin, raw: data });
  const blob = () => new Blob([new Uint8Array(png)], { type: 'image/png' });

  it('two files, two image fields or an image text field are refused, nothing stored', async () => {
    const count = async () =>
      (await server.database.db.selectFrom('uploads').select('name').execute()).length;
    const before = await count();
    const twoImages = new FormData();
    twoImages.append('image', blob(), 'a.png');
    twoImages.append('image', blob(), 'b.png');
    const imageAndOther = new FormData();
    imageAndOther.append('image', blob(), 'a.png');
    imageAndOther.append('lain', blob(), 'b.png');
    const textThenFile = new FormData();
    textThenFile.append('image', 'bukan file');
    textThenFile.append('image', blob(), 'a.png');
    const fileThenText = new FormData();
    fileThenText.append('image', blob(), 'a.png');
    fileThenText.append('image', 'bukan file');
    const qrTwice = new FormData();
    qrTwice.append('file', blob(), 'a.png');
    qrTwice.append('file', blob(), 'b.png');
    for (const [name, data, url] of [
      ['two image files', twoImages, '/api/upload/image'],
      ['image then another file', imageAndOther, '/api/upload/image'],
      ['image text then file', textThenFile, '/api/upload/image'],
      ['image file then text', fileThenText, '/api/upload/image'],
      ['two QR files', qrTwice, '/api/admin/upload-qr'],
    ] as const) {
      const answer = await send(data, url);
      expectCleanError(answer);
      expect(answer.status, name).toBeLessThan(500);
      expect(answer.body.detail, name).toMatch(/satu file|harus berisi file/);
    }
    expect(await count()).toBe(before);
  });
});

describe('price tiers created together', () => {
  it('of overlapping tiers created at once, exactly one is kept', async () => {
    for (let round = 0; round < 3; round += 1) {
      const base = 300_000 + round * 1000;
      const specs = Array.from({ length: 8 }, (_, i) =>
        spec('POST', '/api/admin/pricing', admin, {
          tier_name: `Balapan ${round}-${i}`,
          min_points: base + i,
          max_points: base + 100 + i,
          price_per_point: 50,
        }),
      );
      const answers = await burst(specs);
      expectNoServerError(answers, specs);
      expect(statusCounts(answers)).toEqual({ 201: 1, 409: 7 });
      for (const answer of answers.filter((a) => a.status === 409))
        expect(answer.body.detail).toMatch(/^Rentang poin bertabrakan dengan tier "Balapan /);
      const kept = await server.database.db
        .selectFrom('pricing_tiers')
        .select('id')
        .where('min_points', '>=', base)
        .where('min_points', '<', base + 1000)
        .execute();
      expect(kept).toHaveLength(1);
    }
  });
});

/** Writes raw bytes on a fresh socket and reads the whole answer (the server closes it). */
function rawRequest(bytes: string | Buffer): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(10_000, () => reject(new Error('no answer')));
    socket.write(bytes);
  });
}

function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe("requests Node's HTTP parser refuses", () => {
  it('answer an Indonesian {detail} with the security headers', async () => {
    const cases: [string, string | Buffer, number][] = [
      ['malformed request line', 'INI BUKAN HTTP\r\n\r\n', 400],
      ['bad header name', 'GET /api/health HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n', 400],
      [
        'control character in a header',
        'GET /api/health HTTP/1.1\r\nHost: a\r\nX-A: \u0001\r\n\r\n',
        400,
      ],
      [
        'bad content length',
        'POST /api/auth/login HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n',
        400,
      ],
      [
        'header overflow',
        `GET /api/health HTTP/1.1\r\nHost: a\r\nX-Besar: ${'a'.repeat(70_000)}\r\n\r\n`,
        431,
      ],
    ];
    for (const [name, bytes, status] of cases) {
      const answer = parseRaw(await rawRequest(bytes));
      expect(answer.status, name).toBe(status);
      expect(answer.headers.get('content-type'), name).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(answer.headers.get('x-frame-options'), name).toBe('DENY');
      expect(answer.headers.get('content-security-policy'), name).toContain("default-src 'none'");
      const body = JSON.parse(answer.body) as { detail: string };
      expect(Object.keys(body), name).toEqual(['detail']);
      expect(body.detail, name).toMatch(/tidak valid|terlalu besar/);
      expect(Number(answer.headers.get('content-length')), name).toBe(
        Buffer.byteLength(answer.body),
      );
    }
    // The server still answers normally afterwards.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});

describe('lone UTF-16 surrogates', () => {
  it('are refused with 422 in any string, key or query, and nothing is stored', async () => {
    const client = await funded(5);
    const notesBefore = await server.database.db.selectFrom('notes').select('id').execute();
    for (const text of ['\ud800', 'a\udc00b', 'x\udbff', '\udfff\ud800']) {
      for (const [method, url, token, body] of [
        ['POST', '/api/admin/notes', admin, { title: text, content: 'isi' }],
        ['POST', '/api/admin/notes', admin, { title: 'judul', content: `isi ${text}` }],
        ['POST', '/api/admin/contacts', admin, { platform: 'telegram', value: text }],
        [
          'POST',
          '/api/client/blast-requests',
          client.token,
          {
            message: text,
            target_numbers: ['081234567890'],
            image_url: null,
          },
        ],
        [
          'POST',
          '/api/client/blast-requests',
          client.token,
          { message: 'halo', target_numbers: ['081234567890', `0812${text}`], image_url: null },
        ],
        ['POST', '/api/auth/login', '', { email: `a${text}@b.id`, password: 'rahasia' }],
        ['POST', '/api/admin/notes', admin, { title: 'a', content: 'b', [text]: 1 }],
      ] as const) {
        const answer = await server.api(method, url, { token, body });
        expectCleanError(answer, 422);
        expect(answer.body.detail).toBe('Teks mengandung karakter yang tidak valid');
      }
      const query = await server.api(
        'GET',
        `/api/admin/point-requests?status=${encodeURIComponent('x').replace('x', '%ED%A0%80')}`,
        { token: admin },
      );
      expect(query.status).toBeLessThan(500);
    }
    // A well-formed pair (an emoji) is fine.
    await ok('POST', '/api/admin/notes', admin, { title: 'Emoji 😀', content: '\ud83d\ude00' });
    const notesAfter = await server.database.db.selectFrom('notes').select('id').execute();
    expect(notesAfter).toHaveLength(notesBefore.length + 1);
  });
});

describe('huge validation errors', () => {
  it('100,000 bad items answer a short error body', async () => {
    const client = await funded(5);
    const bodies: [string, string, string, unknown][] = [
      [
        'POST',
        '/api/client/blast-requests',
        client.token,
        {
          message: 'Halo',
          target_numbers: Array.from({ length: 100_000 }, () => 1),
          image_url: null,
        },
      ],
      [
        'POST',
        '/api/admin/blast-requests/x/number-statuses',
        admin,
        {
          number_statuses: Object.fromEntries(
            Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 'salah']),
          ),
        },
      ],
      [
        'POST',
        '/api/admin/notes',
        admin,
        Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`f${i}`, i])),
      ],
    ];
    for (const [method, url, token, body] of bodies) {
      const answer = await server.api(method, url, { token, body });
      expectCleanError(answer, 422);
      expect(JSON.stringify(answer.body).length, url).toBeLessThan(4_000);
      expect(answer.body.errors.length).toBeLessThanOrEqual(20);
    }
  });
});

describe('auth scheme and numeric parameters', () => {
  it('the bearer scheme is case-insensitive', async () => {
    const token = admin;
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const answer = await server.api('GET', '/api/auth/me', {
        headers: { authorization: `${scheme} ${token}` },
      });
      expect(answer.status, scheme).toBe(200);
    }
    for (const header of [`Basic ${token}`, `Bearer  ${token}`, `bearer`, token]) {
      const answer = await server.api('GET', '/api/auth/me', {
        headers: { authorization: header },
      });
      expectCleanError(answer, 401);
    }
  });

  it("ids and numbers like '00', '1e3', '-0' answer 4xx, never 500", async () => {
    const client = await funded(5);
    const blast = await ok('POST', '/api/client/blast-requests', client.token, {
      message: 'Halo',
      target_numbers: phoneNumbers(3, 500),
      image_url: null,
    });
    for (const weird of ['00', '1e3', '-0', '0x10', '1.0', ' 1', 'NaN', 'Infinity', '%20']) {
      for (const [method, url, token] of [
        ['GET', `/api/admin/blast-requests/${weird}`, admin],
        ['POST', `/api/admin/point-requests/${weird}/approve`, admin],
        ['DELETE', `/api/admin/pricing/${weird}`, admin],
        ['PUT', `/api/admin/notes/${weird}`, admin],
        ['GET', `/api/admin/qr-data/${weird}`, admin],
        ['GET', `/api/client/blast-requests/${weird}`, client.token],
        ['GET', `/api/admin/users?page=${weird}`, admin],
        ['GET', `/api/client/transactions?page_size=${weird}`, client.token],
      ] as const) {
        const answer = await server.api(method, url, {
          token,
          body: method === 'PUT' ? { title: 'a', content: 'b' } : undefined,
        });
        if (answer.status !== 200) expectCleanError(answer);
      }
    }
    // A number's index is written one way only: '00' and '1e0' are not 0 and 1.
    for (const index of ['00', '01', '1e0', '-0', '+1', ' 1']) {
      const answer = await server.api(
        'POST',
        `/api/admin/blast-requests/${blast.id}/number-statuses`,
        { token: admin, body: { number_statuses: { [index]: 'success' } } },
      );
      expectCleanError(answer, 422);
      expect(answer.body.detail, index).toBe('Indeks nomor tidak valid');
    }
    const both = await server.api('POST', `/api/admin/blast-requests/${blast.id}/number-statuses`, {
      token: admin,
      body: { number_statuses: { '0': 'success', '2': 'failed' } },
    });
    expect(both.status).toBe(200);
    expect(both.body.number_statuses).toEqual({ 0: 'success', 1: 'pending', 2: 'failed' });
  });
});

describe('a randomized race round', () => {
  const seed = seedFrom('ATTACK_SEED', `attack ${process.env.TEST_DB ?? 'sqlite'}`);
  const random = seededRandom(seed);
  const rounds = Number(process.env.ATTACK_ROUNDS) || 3;

  it(`${rounds} rounds of mixed requests on shared rows: no 5xx, the ledger holds`, async () => {
    for (let round = 0; round < rounds; round += 1) {
      const clients = [await funded(40), await funded(40), await funded(40)];
      const topUps: string[] = [];
      const blasts: string[] = [];
      for (const c of clients) {
        topUps.push(
          (
            await ok('POST', '/api/client/point-requests', c.token, {
              points_requested: 5,
              amount_paid: 500,
              payment_proof_url: null,
            })
          ).id,
        );
        blasts.push(
          (
            await ok('POST', '/api/client/blast-requests', c.token, {
              message: 'Awal',
              target_numbers: phoneNumbers(4, 1000 + round * 100),
              image_url: null,
            })
          ).id,
        );
      }
      const tier = await ok('POST', '/api/admin/pricing', admin, {
        tier_name: `Acak ${seed}-${round}`,
        min_points: 500_000 + round * 100,
        max_points: 500_050 + round * 100,
        price_per_point: 70,
      });
      const moves: (() => RequestSpec)[] = [
        () => {
          const c = pick(random, clients);
          return spec('POST', '/api/client/blast-requests', c.token, {
            message: 'Acak',
            target_numbers: phoneNumbers(1 + Math.floor(random() * 5), Math.floor(random() * 50)),
            image_url: null,
          });
        },
        () =>
          spec('POST', '/api/client/point-requests', pick(random, clients).token, {
            points_requested: 3,
            amount_paid: 300,
            payment_proof_url: null,
          }),
        () =>
          spec(
            'POST',
            `/api/admin/point-requests/${pick(random, topUps)}/${random() < 0.7 ? 'approve' : 'reject'}`,
            admin,
          ),
        () =>
          spec('POST', `/api/admin/blast-requests/${pick(random, blasts)}/result`, admin, {
            successful_count: Math.floor(random() * 3),
            failed_count: 1,
            no_wa_count: Math.floor(random() * 2),
            admin_notes: null,
          }),
        () =>
          spec('POST', `/api/admin/blast-requests/${pick(random, blasts)}/number-statuses`, admin, {
            number_statuses: {
              [String(Math.floor(random() * 4))]: pick(random, [
                'success',
                'failed',
                'no_wa',
                'pending',
              ]),
            },
          }),
        () => spec('POST', `/api/admin/blast-requests/${pick(random, blasts)}/reject`, admin),
        () => {
          const i = Math.floor(random() * clients.length);
          return spec('POST', `/api/client/blast-requests/${blasts[i]}/cancel`, clients[i]!.token);
        },
        () => {
          const c = pick(random, clients);
          return spec('PUT', `/api/admin/users/${c.user.id}`, admin, {
            username: c.user.username,
            email: c.user.email,
            points: Math.floor(random() * 30),
            is_active: true,
          });
        },
        () => ({
          ...spec('POST', '/api/client/blast-requests', pick(random, clients).token, {
            message: pick(random, ['Kunci A', 'Kunci B']),
            target_numbers: phoneNumbers(2, 200),
            image_url: null,
          }),
          headers: { 'idempotency-key': `kunci-${round}-${Math.floor(random() * 2)}` },
        }),
        () => {
          const i = Math.floor(random() * clients.length);
          return spec('GET', `/api/client/blast-requests/${blasts[i]}`, clients[i]!.token);
        },
        () => spec('GET', '/api/admin/blast-requests?page=2&page_size=2', admin),
        () => spec('GET', '/api/admin/point-requests?status=pending', admin),
        () => spec('GET', '/api/admin/dashboard', admin),
        () => spec('GET', '/api/client/dashboard', pick(random, clients).token),
        () => spec('DELETE', `/api/admin/users/${pick(random, clients).user.id}`, admin),
        () => spec('GET', '/api/client/transactions', pick(random, clients).token),
        () => spec('DELETE', `/api/admin/pricing/${tier.id}`, admin),
        () =>
          spec('PUT', `/api/admin/pricing/${tier.id}`, admin, {
            tier_name: `Acak ${seed}-${round}`,
            min_points: 500_000 + round * 100,
            max_points: 500_060 + round * 100,
            price_per_point: 75,
          }),
      ];
      const specs = Array.from({ length: 40 }, () => pick(random, moves)());
      const answers = await burst(specs);
      expectNoServerError(answers, specs);
      expect(await checkLedger(server.database.db), `seed ${seed} round ${round}`).toEqual([]);
    }
  });
});
