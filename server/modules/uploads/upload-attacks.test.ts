// Hostile uploads: scripts hidden in or beside images, files that lie about their type, sizes at
// and over the limit, a tiny file of huge dimensions, cut-off images. Each is refused with a clear
// message or neutralised by re-encoding, and nothing served from /uploads can run as a page.
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, MAX_IMAGE_BYTES } from '#common/settings.ts';
import { startServer, type ApiAnswer, type TestServer } from '#server/test/helpers.ts';
import { form } from '#server/test/routes.ts';
import { snapshot } from '#server/test/snapshot.ts';
import { busyMessage } from '#server/plugins/in-flight.ts';
import { PIXELS_MESSAGE, reencodes } from './uploads.service.ts';

const SCRIPT = '<script>alert(document.cookie)</script>';

let server: TestServer;
let client: Awaited<ReturnType<TestServer['createClient']>>;
let png: Buffer;

beforeAll(async () => {
  server = await startServer();
  client = await server.createClient();
  // Client uploads are refused while blast images are switched off (the default).
  await server.api('POST', '/api/admin/settings', {
    token: server.adminToken,
    body: { account_number: '1', account_name: 'A', bank_name: 'B', allow_images: true },
  });
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#2a6' } })
    .png()
    .toBuffer();
});
afterAll(() => server?.close());
// Each test's uploads are its own client's: a client may keep only a few unused images.
beforeEach(async () => {
  client = await server.createClient();
});

const upload = (bytes: Buffer, filename = 'gambar.png', type = 'image/png') =>
  server.api('POST', '/api/upload/image', {
    token: client.token,
    raw: form('image', bytes, filename, type),
  });
const uploadQr = (bytes: Buffer, filename = 'qr.png', type = 'image/png') =>
  server.api('POST', '/api/admin/upload-qr', {
    token: server.adminToken,
    raw: form('file', bytes, filename, type),
  });

async function fetchUpload(url: string, accept = 'text/html,*/*') {
  const response = await fetch(`${server.url}${url}`, { headers: { accept } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A stored upload is an image, says so, and cannot run: no sniffing, sandboxed, not frameable. */
async function expectInert(url: string) {
  expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.(png|jpg|gif)$/);
  const { response, bytes } = await fetchUpload(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\/(png|jpeg|gif)$/);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain('sandbox');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(bytes.toString('latin1')).not.toMatch(/<script|<svg|<html|alert\(/i);
  const meta = await sharp(bytes).metadata();
  expect(meta.width).toBeGreaterThan(0);
  return bytes;
}

async function expectRefused(answer: ApiAnswer, status: number, detail: string) {
  expect([answer.status, answer.body]).toEqual([status, { detail }]);
}

/** A PNG chunk: length, type, data, CRC of type + data. */
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1-bit greyscale PNG of the given size whose pixels are all black: a few dozen KB. */
function hugeBlankPng(width: number, height: number) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const raw = Buffer.alloc(row.length * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('scripts in and beside images', () => {
  it('a PNG with a script appended is re-encoded: the script is gone from what is served', async () => {
    const answer = await upload(Buffer.concat([png, Buffer.from(SCRIPT)]), 'evil.png');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await expectInert(answer.body.url);
    const qr = await uploadQr(Buffer.concat([png, Buffer.from(SCRIPT)]));
    expect(qr.status).toBe(200);
    await expectInert(qr.body.file_url);
    const inline = Buffer.from(qr.body.data_url.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(inline.toString('latin1')).not.toContain('<script');
  });

  it('a PNG with a script in a text chunk, and a GIF with a script comment, lose it', async () => {
    const iend = png.length - 12;
    const withText = Buffer.concat([
      png.subarray(0, iend),
      chunk('tEXt', Buffer.from(`Comment\0${SCRIPT}`, 'latin1')),
      png.subarray(iend),
    ]);
    const answer = await upload(withText);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await expectInert(answer.body.url);

    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .gif()
      .toBuffer();
    // A comment extension block right after the header and logical screen descriptor.
    const packed = gif[10]!;
    const tableSize = packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
    const at = 13 + tableSize;
    const comment = Buffer.concat([
      Buffer.from([0x21, 0xfe, SCRIPT.length]),
      Buffer.from(SCRIPT),
      Buffer.from([0]),
    ]);
    const gifAnswer = await upload(
      Buffer.concat([gif.subarray(0, at), comment, gif.subarray(at)]),
      'evil.gif',
      'image/gif',
    );
    expect(gifAnswer.status, JSON.stringify(gifAnswer.body)).toBe(200);
    expect(gifAnswer.body.url).toMatch(/\.gif$/);
    await expectInert(gifAnswer.body.url);
  });

  it('an SVG with a script is refused, whatever its name and declared type', async () => {
    const svg = Buffer.from(
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${SCRIPT}</svg>`,
    );
    for (const [name, type] of [
      ['gambar.svg', 'image/svg+xml'],
      ['gambar.png', 'image/png'],
    ] as const) {
      await expectRefused(await upload(svg, name, type), 422, IMAGE_TYPE_MESSAGE);
      await expectRefused(await uploadQr(svg, name, type), 422, IMAGE_TYPE_MESSAGE);
    }
  });

  it('an HTML page named .png is refused; a real PNG named .html is stored as a PNG', async () => {
    const html = Buffer.from(`<!doctype html><html><body>${SCRIPT}</body></html>`);
    await expectRefused(await upload(html, 'foto.png', 'image/png'), 422, IMAGE_TYPE_MESSAGE);
    await expectRefused(await uploadQr(html, 'qr.png', 'image/png'), 422, IMAGE_TYPE_MESSAGE);
    // A file that starts like a GIF but is a script (GIFAR-style): recognised, then unreadable.
    const fakeGif = Buffer.from(`GIF89a=1;${SCRIPT}//`);
    const answer = await upload(fakeGif, 'x.gif', 'image/gif');
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toMatch(
      /Gambar rusak atau tidak dapat dibaca|File harus berupa gambar/,
    );

    const named = await upload(png, 'halaman.html', 'text/html');
    expect(named.status).toBe(200);
    expect(named.body.url).toMatch(/\.png$/);
    await expectInert(named.body.url);
  });
});

describe('size and dimensions', () => {
  /** A real PNG padded after its end to exactly `size` bytes. */
  const padded = (size: number) => Buffer.concat([png, Buffer.alloc(size - png.length, 0x20)]);

  it('exactly 5 MB is accepted; 5 MB + 1 byte is refused with the size message', async () => {
    const atLimit = await upload(padded(MAX_IMAGE_BYTES));
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
    await expectInert(atLimit.body.url);
    const before = await snapshot(server.database.db);
    await expectRefused(await upload(padded(MAX_IMAGE_BYTES + 1)), 413, IMAGE_SIZE_MESSAGE);
    await expectRefused(await uploadQr(padded(MAX_IMAGE_BYTES + 1)), 413, IMAGE_SIZE_MESSAGE);
    expect(await snapshot(server.database.db)).toEqual(before);
  });

  it('a tiny PNG of 20000 x 20000 pixels is refused without decoding it', async () => {
    const bomb = hugeBlankPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({
      width: 20_000,
      height: 20_000,
    });
    const rssBefore = process.memoryUsage().rss;
    const before = await snapshot(server.database.db);
    await expectRefused(await upload(bomb), 422, PIXELS_MESSAGE);
    await expectRefused(await uploadQr(bomb), 422, PIXELS_MESSAGE);
    expect(await snapshot(server.database.db)).toEqual(before);
    // Decoding it would take 400 MB at one byte a pixel; the server never gets near that.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * 1024 * 1024);
  });

  it("a client's big GIFs are re-encoded one after another, and at most two at once", async () => {
    // A GIF is decoded whole: 4 megapixels of one colour are 3 KB sent and about 55 MB decoded.
    const gif = await sharp({
      create: { width: 2000, height: 2000, channels: 3, background: '#369' },
    })
      .gif()
      .toBuffer();
    const sendTwo = (token: string) =>
      Promise.all(
        [1, 2].map(() =>
          server.api('POST', '/api/upload/image', {
            token,
            raw: form('image', gif, 'besar.gif', 'image/gif'),
          }),
        ),
      );
    reencodes.most = 0;
    expect((await sendTwo(client.token)).map((answer) => answer.status)).toEqual([200, 200]);
    expect(reencodes.most).toBe(1);
    const others = [await server.createClient(), await server.createClient(), client];
    const answers = (await Promise.all(others.map((other) => sendTwo(other.token)))).flat();
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(reencodes.most).toBeLessThanOrEqual(2);
    // A refused image does not wait for a turn, nor hold up the next one.
    const [refused, after] = await Promise.all([
      upload(hugeBlankPng(20_000, 20_000)),
      upload(gif, 'besar.gif', 'image/gif'),
    ]);
    await expectRefused(refused, 422, PIXELS_MESSAGE);
    expect(after.status).toBe(200);
  });

  it('a GIF of 6000 x 6000 pixels (25 KB sent) is refused from its header, never decoded', async () => {
    const gif = await sharp({
      create: { width: 6000, height: 6000, channels: 3, background: '#369' },
    })
      .gif()
      .toBuffer();
    expect(gif.length).toBeLessThan(50_000);
    reencodes.most = 0;
    const before = await snapshot(server.database.db);
    await expectRefused(await upload(gif, 'besar.gif', 'image/gif'), 422, PIXELS_MESSAGE);
    await expectRefused(await uploadQr(gif, 'qr.gif', 'image/gif'), 422, PIXELS_MESSAGE);
    expect(await snapshot(server.database.db)).toEqual(before);
    expect(reencodes.most).toBe(0);
  });

  it("one client's flood of large images: the excess is refused, another client and the admin are served first", async () => {
    const max = server.config.clientInFlight;
    const gif = await sharp({
      create: { width: 2500, height: 2500, channels: 3, background: '#936' },
    })
      .gif()
      .toBuffer();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a7' } })
      .png()
      .toBuffer();
    const finished: string[] = [];
    const timed = async (label: string, sent: Promise<ApiAnswer>) => {
      const answer = await sent;
      finished.push(`${label} ${answer.status}`);
      return answer;
    };
    const flood = Array.from({ length: max + 2 }, () =>
      timed('flood', upload(gif, 'besar.gif', 'image/gif')),
    );
    await vi.waitFor(() => expect(reencodes.running).toBeGreaterThan(0), { interval: 5 });
    const other = await server.createClient();
    const started = Date.now();
    const [small, qr] = await Promise.all([
      timed(
        'other',
        server.api('POST', '/api/upload/image', { token: other.token, raw: form('image', png) }),
      ),
      timed('qr', uploadQr(png)),
    ]);
    const waited = Date.now() - started;
    const flooded = await Promise.all(flood);
    expect([small.status, qr.status]).toEqual([200, 200]);
    // The flood's uploads are re-encoded one after another: the other client and the admin are
    // answered before the second of them, however slow the machine.
    expect(flooded.map((answer) => answer.status).sort()).toEqual([
      ...Array(max).fill(200),
      429,
      429,
    ]);
    expect(flooded.find((answer) => answer.status === 429)?.body.detail).toBe(busyMessage(max));
    const accepted = finished.filter((line) => line === 'flood 200');
    expect(accepted).toHaveLength(max);
    expect(finished.indexOf('other 200')).toBeLessThan(finished.lastIndexOf('flood 200'));
    expect(finished.indexOf('qr 200')).toBeLessThan(finished.lastIndexOf('flood 200'));
    // A generous bound (the bench measures it): a 8 x 8 PNG does not wait for a 6-megapixel GIF.
    expect(waited).toBeLessThan(5_000);
  });

  it('a truncated PNG or JPEG is refused as unreadable', async () => {
    const noise = await sharp(
      Buffer.from(Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 37) % 256)),
      {
        raw: { width: 64, height: 64, channels: 3 },
      },
    );
    const fullPng = await noise.clone().png().toBuffer();
    const fullJpeg = await noise.clone().jpeg().toBuffer();
    for (const [bytes, name, type] of [
      [fullPng.subarray(0, Math.floor(fullPng.length / 2)), 'potong.png', 'image/png'],
      [fullJpeg.subarray(0, Math.floor(fullJpeg.length / 2)), 'potong.jpg', 'image/jpeg'],
    ] as const) {
      await expectRefused(
        await upload(bytes, name, type),
        422,
        'Gambar rusak atau tidak dapat dibaca',
      );
    }
  });
});

describe('serving', () => {
  it('nothing under /uploads is ever an HTML page: unknown names are a JSON 404', async () => {
    for (const name of [
      'x.html',
      'index.html',
      '..%2F..%2Fsebar.sqlite',
      '%2e%2e%2fsebar.sqlite',
      'a'.repeat(90),
    ]) {
      const { response, bytes } = await fetchUpload(`/uploads/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(bytes.toString()).toBe(JSON.stringify({ detail: 'File tidak ditemukan' }));
    }
    const { response } = await fetchUpload('/uploads/');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('a blast image must be an upload of this server', async () => {
    await server.api('POST', '/api/admin/settings', {
      token: server.adminToken,
      body: { account_number: '1', account_name: 'A', bank_name: 'B', allow_images: true },
    });
    await server.api('PUT', `/api/admin/users/${client.user.id}`, {
      token: server.adminToken,
      body: {
        username: client.user.username,
        email: client.user.email,
        points: 5,
        is_active: true,
      },
    });
    for (const image_url of [
      'https://evil.example/x.png',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '/uploads/../sebar.sqlite',
      `/uploads/${'0'.repeat(36)}.png`,
    ]) {
      const answer = await server.api('POST', '/api/client/blast-requests', {
        token: client.token,
        body: { message: 'Halo', target_numbers: ['081234567890'], image_url },
      });
      expect([answer.status, answer.body], image_url).toEqual([
        422,
        { detail: 'Gambar tidak ditemukan. Upload ulang gambar Anda.' },
      ]);
    }
  });
});
