// Uploads over HTTP: PNG, JPEG and GIF are recognised by their bytes, re-encoded and served with
// their real type; anything else and anything over 5 MB is refused; the QR as inline data.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { settingsBody } from '#server/test/routes.ts';
import { expectCleanError, expectSpecFields, expectUnchanged } from '#server/test/spec.ts';
import {
  IMAGES_OFF,
  MAX_UNUSED_UPLOADS,
  purgeUnusedUploads,
  sweepOrphanFiles,
  UNUSED_QUOTA_MESSAGE,
} from './uploads.service.ts';

let server: TestServer;
let admin = '';
let client = '';
beforeAll(async () => {
  server = await startServer();
  admin = server.adminToken;
  client = (await server.createClient()).token;
  PNG_16x12 = await square('#7a7a7a').png().toBuffer();
  // Client uploads are refused while blast images are switched off (the default).
  expect((await saveSettings()).status).toBe(200);
});
afterAll(() => server?.close());

let PNG_16x12: Buffer;
const square = (color: string) =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: color } });

async function upload(
  route: string,
  token: string | null,
  field: string,
  bytes: Buffer,
  name = 'gambar.png',
  type = 'image/png',
) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function fetchFile(url: string) {
  const response = await fetch(`${server.url}${url}`);
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** Saves the payment settings with `changes` over a valid body naming no QR. */
const saveSettings = (changes: Partial<ReturnType<typeof settingsBody>> = {}) =>
  server.api('POST', '/api/admin/settings', {
    token: admin,
    body: { ...settingsBody(null), ...changes },
  });

/** A new client holding `points`, set through the admin's edit. */
async function fundedClient(username: string, points: number) {
  const created = await server.createClient({ username });
  const body = { username, email: created.user.email, points, is_active: true };
  const edited = await server.api('PUT', `/api/admin/users/${created.user.id}`, {
    token: admin,
    body,
  });
  expect(edited.status).toBe(200);
  return created;
}

describe('image uploads', () => {
  it('accepts PNG, JPEG and GIF, re-encodes them and serves them with their real type', async () => {
    const script = Buffer.from('<script>alert(1)</script>');
    const cases = [
      ['image/png', await square('#ff0000').png().toBuffer(), 'a.png'],
      ['image/jpeg', await square('#00ff00').jpeg().toBuffer(), 'a.jpg'],
      ['image/gif', await square('#0000ff').gif().toBuffer(), 'a.gif'],
    ] as const;
    for (const [mime, image, name] of cases) {
      // A valid image with a script appended, sent under a lying name and type.
      const answer = await upload(
        '/api/upload/image',
        client,
        'image',
        Buffer.concat([image, script]),
        `${name}.html`,
        'text/html',
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectSpecFields(answer.body, 'imageUpload');
      expect(answer.body.url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.(png|jpg|gif)$/);
      const served = await fetchFile(answer.body.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(mime);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.bytes.includes(script)).toBe(false);
      const meta = await sharp(served.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([16, 12]);
    }
  });

  it('refuses anything that is not a PNG, JPEG or GIF by its bytes', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const webp = await square('#123456').webp().toBuffer();
    const truncated = (await square('#654321').png().toBuffer()).subarray(0, 40);
    await expectUnchanged(server.database.db, async () => {
      for (const [bytes, name, type] of [
        [Buffer.from('bukan gambar'), 'a.png', 'image/png'],
        [svg, 'a.svg', 'image/svg+xml'],
        [webp, 'a.png', 'image/png'],
        [Buffer.from('%PDF-1.4\n'), 'a.pdf', 'application/pdf'],
      ] as const) {
        const answer = await upload('/api/upload/image', client, 'image', bytes, name, type);
        expectCleanError(answer, 422);
        expect(answer.body.detail).toBe('File harus berupa gambar (PNG, JPG, GIF)');
      }
      expectCleanError(await upload('/api/upload/image', client, 'image', truncated), 422);
    });
  });

  it('answers 413 for a file over 5 MB and accepts one of exactly 5 MB', async () => {
    const png = await square('#abcdef').png().toBuffer();
    await expectUnchanged(server.database.db, async () => {
      const over = Buffer.concat([png, Buffer.alloc(5_242_881 - png.length)]);
      const answer = await upload('/api/upload/image', client, 'image', over);
      expectCleanError(answer, 413);
      expect(answer.body.detail).toBe('Ukuran file maksimal 5MB');
      const qr = await upload('/api/admin/upload-qr', admin, 'file', over);
      expectCleanError(qr, 413);
      expect(qr.body.detail).toBe('Ukuran file maksimal 5MB');
    });
    // Exactly the limit is allowed (trailing bytes after the PNG end are dropped by re-encoding).
    const exact = Buffer.concat([png, Buffer.alloc(5_242_880 - png.length)]);
    const answer = await upload('/api/upload/image', client, 'image', exact);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await fetchFile(answer.body.url)).bytes.length).toBeLessThan(10_000);
  });

  it('refuses a missing file, the wrong field, a non-multipart body and callers without a token', async () => {
    const png = await square('#111111').png().toBuffer();
    await expectUnchanged(server.database.db, async () => {
      expectCleanError(await upload('/api/upload/image', client, 'file', png), 422);
      expectCleanError(await upload('/api/admin/upload-qr', admin, 'image', png), 422);
      expectCleanError(await upload('/api/upload/image', null, 'image', png), 401);
      expectCleanError(await upload('/api/admin/upload-qr', client, 'file', png), 403);
      const json = await server.api('POST', '/api/upload/image', {
        token: client,
        body: { image: 'data:image/png;base64,AAAA' },
      });
      expectCleanError(json);
      const empty = await fetch(`${server.url}/api/upload/image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client}` },
        body: new FormData(),
      });
      expect(empty.status).toBeGreaterThanOrEqual(400);
      expect(empty.status).toBeLessThan(500);
    });
    // The URL is normalised to /etc/passwd, a screen's path: the app's page, never the file.
    const climbed = await fetch(`${server.url}/uploads/../../etc/passwd`);
    expect(climbed.headers.get('content-type')).toContain('text/html');
    expect(await climbed.text()).not.toContain('root:');
    expectCleanError(await server.api('GET', '/uploads/%2e%2e%2f%2e%2e%2fetc%2fpasswd'), 404);
    expectCleanError(await server.api('GET', '/uploads/tidak-ada.png'), 404);
  });

  it('only the upload routes read multipart: any other route refuses a form with 415', async () => {
    const png = await square('#222222').png().toBuffer();
    await expectUnchanged(server.database.db, async () => {
      for (const [route, token] of [
        ['/api/client/blast-requests', client],
        ['/api/client/point-requests', client],
        ['/api/admin/notes', admin],
      ] as const) {
        const answer = await upload(route, token, 'image', png);
        expectCleanError(answer, 415);
        expect(answer.body.detail).toBe('Jenis konten tidak didukung');
      }
    });
  });
});

describe('the QR code', () => {
  it('upload-qr answers file_url and data_url; qr-data serves it to the admin', async () => {
    const png = await square('#222222').png().toBuffer();
    const answer = await upload('/api/admin/upload-qr', admin, 'file', png);
    expect(answer.status).toBe(200);
    expectSpecFields(answer.body, 'qrUpload');
    expect(answer.body.file_url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    expect(answer.body.data_url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    const stored = await fetchFile(answer.body.file_url);
    expect(answer.body.data_url).toBe(`data:image/png;base64,${stored.bytes.toString('base64')}`);
    const filename = answer.body.file_url.split('/').pop();
    const data = await server.api('GET', `/api/admin/qr-data/${filename}`, { token: admin });
    expect(data.status).toBe(200);
    expect(data.body).toEqual({ data_url: answer.body.data_url });
  });

  it('a client gets only the QR that the settings currently name', async () => {
    const first = await upload(
      '/api/admin/upload-qr',
      admin,
      'file',
      await square('#333333').png().toBuffer(),
    );
    const second = await upload(
      '/api/admin/upload-qr',
      admin,
      'file',
      await square('#444444').png().toBuffer(),
    );
    const clientImage = await upload(
      '/api/upload/image',
      client,
      'image',
      await square('#555555').png().toBuffer(),
    );
    const name = (url: string) => url.split('/').pop();
    const asClient = (file: string) =>
      server.api('GET', `/api/admin/qr-data/${file}`, { token: client });

    expectCleanError(await asClient(name(first.body.file_url)!), 404);
    const saved = await saveSettings({
      account_number: '123',
      barcode_url: first.body.file_url,
      qr_code_file: first.body.file_url,
      qr_data_url: first.body.data_url,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.qr_code_file).toBe(first.body.file_url);
    const mine = await asClient(name(first.body.file_url)!);
    expect(mine.status).toBe(200);
    expect(mine.body.data_url).toBe(first.body.data_url);
    for (const other of [
      name(second.body.file_url)!,
      name(clientImage.body.url)!,
      '..%2F..%2Fsebar.sqlite',
      'tidak-ada.png',
    ]) {
      const refused = await asClient(other);
      expectCleanError(refused, 404);
    }
    // The admin may read any stored image, never a name that is not an upload.
    expect(
      (
        await server.api('GET', `/api/admin/qr-data/${name(second.body.file_url)}`, {
          token: admin,
        })
      ).status,
    ).toBe(200);
    expectCleanError(
      await server.api('GET', '/api/admin/qr-data/..%2F..%2Fsebar.sqlite', { token: admin }),
      404,
    );
    expectCleanError(
      await server.api('GET', `/api/admin/qr-data/${name(first.body.file_url)}`),
      401,
    );
  });
});

describe('a blast image', () => {
  it('is refused while images are off, accepted when on, and must be our own upload', async () => {
    const image = await upload(
      '/api/upload/image',
      client,
      'image',
      await square('#666666').png().toBuffer(),
    );
    const send = (image_url: string | null) =>
      server.api('POST', '/api/client/blast-requests', {
        token: client,
        body: { message: 'Gambar', target_numbers: ['081234567890'], image_url },
      });
    const settings = await server.api('GET', '/api/admin/settings', { token: admin });
    await server.api('POST', '/api/admin/settings', {
      token: admin,
      body: { ...settings.body, allow_images: false },
    });
    const off = await send(image.body.url);
    expectCleanError(off, 422);
    expect(off.body.detail).toBe('Upload gambar untuk blast sedang tidak diizinkan');
    await server.api('POST', '/api/admin/settings', {
      token: admin,
      body: { ...settings.body, allow_images: true },
    });
    expect(
      (await server.api('GET', '/api/public/settings', { token: client })).body.allow_images,
    ).toBe(true);
    for (const url of [
      'https://evil.test/a.png',
      '/uploads/00000000-0000-4000-8000-000000000000.png',
    ]) {
      const refused = await send(url);
      expectCleanError(refused, 422);
    }
    // Not enough points is still the answer for a valid image: the image check passed.
    const valid = await send(image.body.url);
    expectCleanError(valid, 409);
    expect(valid.body.detail).toContain('Poin Tidak Cukup');
  });
});

describe('a retried image blast', () => {
  it('gets its blast back after images were turned off, and is charged once', async () => {
    const created = await fundedClient('ulang-gambar', 10);
    const image = await upload(
      '/api/upload/image',
      created.token,
      'image',
      await square('#123456').png().toBuffer(),
    );
    const setImages = async (allow_images: boolean) => {
      expect((await saveSettings({ allow_images })).status).toBe(200);
    };
    const send = (key: string, message = 'Dengan gambar') =>
      server.api('POST', '/api/client/blast-requests', {
        token: created.token,
        headers: { 'idempotency-key': key },
        body: {
          message,
          target_numbers: ['081234567890', '081234567891'],
          image_url: image.body.url,
        },
      });
    await setImages(true);
    const first = await send('kunci-gambar');
    expect(first.status).toBe(201);
    await setImages(false);
    try {
      // The client's connection dropped before the answer: the retry gets the blast it made.
      const again = await send('kunci-gambar');
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      // Another body under the same key is still told so, not about the image.
      const other = await send('kunci-gambar', 'Pesan lain');
      expectCleanError(other, 422);
      expect(other.body.detail).toBe('Idempotency-Key sudah dipakai untuk permintaan yang berbeda');
      // A new blast with the image is refused, and takes nothing.
      const refused = await send('kunci-baru');
      expectCleanError(refused, 422);
      expect(refused.body.detail).toBe('Upload gambar untuk blast sedang tidak diizinkan');
      const me = await server.api('GET', '/api/auth/me', { token: created.token });
      expect(me.body.points).toBe(8);
      const blasts = await server.api('GET', '/api/client/blast-requests', {
        token: created.token,
      });
      expect(blasts.body.total).toBe(1);
    } finally {
      await setImages(true);
    }
  });
});

describe('unused uploads', () => {
  it('are removed after a day; images of blasts and the saved QR stay', async () => {
    const created = await fundedClient('sisa-unggahan', 1);
    expect((await saveSettings()).status).toBe(200);
    const image = async (color: string) =>
      (
        await upload(
          '/api/upload/image',
          created.token,
          'image',
          await square(color).png().toBuffer(),
        )
      ).body.url as string;
    const [sent, refused, unsent] = [
      await image('#010101'),
      await image('#020202'),
      await image('#030303'),
    ];
    const blast = (image_url: string, target_numbers: string[]) =>
      server.api('POST', '/api/client/blast-requests', {
        token: created.token,
        body: { message: 'Gambar', target_numbers, image_url },
      });
    expect((await blast(sent, ['081234567890'])).status).toBe(201);
    // Too few points: the form had uploaded the image before the blast was refused.
    expect((await blast(refused, ['081234567891', '081234567892'])).status).toBe(409);
    const qr = async (color: string) =>
      (await upload('/api/admin/upload-qr', admin, 'file', await square(color).png().toBuffer()))
        .body.file_url as string;
    const [savedQr, unsavedQr] = [await qr('#040404'), await qr('#050505')];
    expect((await saveSettings({ qr_code_file: savedQr })).status).toBe(200);
    const served = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries({ sent, refused, unsent, savedQr, unsavedQr }).map(
            async ([what, url]) => [what, (await fetchFile(url)).status] as const,
          ),
        ),
      );
    const hour = 60 * 60 * 1000;
    const { database, files } = server.context;
    expect(await purgeUnusedUploads(database, files, new Date(Date.now() + 23 * hour))).toEqual([]);
    const removed = await purgeUnusedUploads(database, files, new Date(Date.now() + 25 * hour));
    const nameOf = (url: string) => url.split('/').pop()!;
    // (The other tests' unused uploads in this database go too.)
    expect(removed).toEqual(expect.arrayContaining([refused, unsent, unsavedQr].map(nameOf)));
    expect(removed).not.toContain(nameOf(sent));
    expect(removed).not.toContain(nameOf(savedQr));
    expect(await served()).toEqual({
      sent: 200,
      refused: 404,
      unsent: 404,
      savedQr: 200,
      unsavedQr: 404,
    });
    for (const name of removed) {
      expect(fs.existsSync(path.join(server.context.uploadsDir, name))).toBe(false);
    }
  });
});

describe('what a client may upload', () => {
  it('nothing while blast images are switched off; the admin may still upload the QR', async () => {
    expect((await saveSettings({ allow_images: false })).status).toBe(200);
    try {
      const png = await square('#0f0f0f').png().toBuffer();
      await expectUnchanged(server.database.db, async () => {
        const refused = await upload('/api/upload/image', client, 'image', png);
        expectCleanError(refused, 403);
        expect(refused.body.detail).toBe(IMAGES_OFF);
        // The admin's own upload through the client route is refused alike.
        expectCleanError(await upload('/api/upload/image', admin, 'image', png), 403);
      });
      expect((await upload('/api/admin/upload-qr', admin, 'file', png)).status).toBe(200);
    } finally {
      expect((await saveSettings()).status).toBe(200);
    }
  });

  it('at most ten images no blast names yet: one more is refused until a blast uses one', async () => {
    const created = await fundedClient('kuota-gambar', 5);
    const image = (i: number) =>
      upload(
        '/api/upload/image',
        created.token,
        'image',
        Buffer.concat([PNG_16x12, Buffer.from([i])]),
      );
    const urls: string[] = [];
    for (let i = 0; i < MAX_UNUSED_UPLOADS - 1; i += 1) {
      const answer = await image(i);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      urls.push(answer.body.url);
    }
    // Two at once for the last place: one gets it.
    const racing = await Promise.all([image(50), image(51)]);
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409]);
    urls.push(racing.find((answer) => answer.status === 200)!.body.url);
    const files = () => fs.readdirSync(server.context.uploadsDir).length;
    const filesBefore = files();
    await expectUnchanged(server.database.db, async () => {
      const refused = await image(99);
      expectCleanError(refused, 409);
      expect(refused.body.detail).toBe(UNUSED_QUOTA_MESSAGE);
    });
    expect(files()).toBe(filesBefore);
    // Another client is not affected.
    expect((await upload('/api/upload/image', client, 'image', PNG_16x12)).status).toBe(200);
    const sent = await server.api('POST', '/api/client/blast-requests', {
      token: created.token,
      body: { message: 'Gambar', target_numbers: ['081234567890'], image_url: urls[0] },
    });
    expect(sent.status).toBe(201);
    expect((await image(100)).status).toBe(200);
    expectCleanError(await image(101), 409);
  });

  it('at most 20 MB of images no blast names yet', async () => {
    const created = await fundedClient('kuota-mb', 0);
    // Noise does not compress: each is about 4.9 MB sent and stored.
    const noisy = () =>
      sharp(crypto.randomBytes(1280 * 1280 * 3), {
        raw: { width: 1280, height: 1280, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      const bytes = await noisy();
      expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
      answers.push(await upload('/api/upload/image', created.token, 'image', bytes));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 409]);
    expect(answers[4]!.body.detail).toBe(UNUSED_QUOTA_MESSAGE);
  });
});

describe('files without a row', () => {
  it('are removed once an hour old; files with rows, newer files and foreign files stay', async () => {
    const dir = server.context.uploadsDir;
    const kept = await upload('/api/upload/image', client, 'image', PNG_16x12);
    expect(kept.status).toBe(200);
    const keptName = kept.body.url.split('/').pop() as string;
    // What a crash between writing a file and its row leaves: a file no row names.
    const orphan = `${crypto.randomUUID()}.png`;
    const fresh = `${crypto.randomUUID()}.jpg`;
    const foreign = 'catatan.txt';
    for (const name of [orphan, fresh, foreign]) fs.writeFileSync(path.join(dir, name), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [keptName, orphan, foreign])
      fs.utimesSync(path.join(dir, name), twoHoursAgo, twoHoursAgo);
    const { database, files } = server.context;
    // (The sweep a second after start may have run meanwhile and taken the orphan already.)
    const removed = await sweepOrphanFiles(database, files);
    expect(removed.filter((name) => name !== orphan)).toEqual([]);
    const present = new Set(fs.readdirSync(dir));
    expect([keptName, orphan, fresh, foreign].map((name) => present.has(name))).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect((await fetchFile(kept.body.url)).status).toBe(200);
    // The fresh one may still be an upload between its file and its row: an hour later it goes.
    expect(await sweepOrphanFiles(database, files, new Date(Date.now() + 61 * 60 * 1000))).toEqual([
      fresh,
    ]);
  });
});
