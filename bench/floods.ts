// One client flooding the server while another works: how long the other's calls take.
// `images`: client A keeps FLOOD_IMAGES uploads of a GIF in flight (the issue's
// 6000 x 6000 one, then the largest accepted, 4096 x 4096); client B uploads
// an 8 x 8 PNG and the admin a QR, one after another. `blasts`: client A keeps FLOOD_BLASTS
// blast creations of 500 numbers in flight; client B sends top-up requests one after another.
// The production server runs as a child process (the bundle of the current source) on a fresh
// database of TEST_DB (sqlite or postgres), the per-session rate limit off.
// Env: TEST_DB (sqlite), FLOOD_MODE (images,blasts), BENCH_SECONDS (10 of flood per mode),
// FLOOD_IMAGES (12), FLOOD_BLASTS (100), SEBAR_CLIENT_IN_FLIGHT (2, the server's default),
// SEBAR_USER_RATE_LIMIT (0).
// Run: npm run bench:floods
import sharp from 'sharp';
import {
  addPricing,
  makeClient,
  phoneNumbers,
  processDatabase,
  signIn,
  startChild,
  stopChildren,
  type ChildServer,
  type ClientAccount,
} from '#server/test/processes.ts';
import { ADMIN, engine } from '#server/test/helpers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MODES = (process.env.FLOOD_MODE ?? 'images,blasts').split(',');
const FLOOD_IMAGES = Number(process.env.FLOOD_IMAGES ?? 12);
const FLOOD_BLASTS = Number(process.env.FLOOD_BLASTS ?? 100);
/** The server's bound on a client's expensive requests in flight (0: off), as in production. */
const IN_FLIGHT = process.env.SEBAR_CLIENT_IN_FLIGHT ?? '2';
/** The per-session rate limit (requests a minute; 0: off, so the flood is not cut by it). */
const RATE_LIMIT = process.env.SEBAR_USER_RATE_LIMIT ?? '0';

interface Timed {
  status: number;
  ms: number;
}

async function call(
  server: ChildServer,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  form?: FormData,
): Promise<Timed> {
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

function imageForm(field: string, bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

/** Keeps `width` requests in flight until `until`; answers the count of each status. */
async function flood(width: number, until: number, request: () => Promise<Timed>) {
  const statuses: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (performance.now() < until) {
        const { status } = await request();
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

/** Calls `request` one after another, `gapMs` apart, until `until`. */
async function probe(until: number, gapMs: number, request: () => Promise<Timed>) {
  const times: Timed[] = [];
  while (performance.now() < until) {
    times.push(await request());
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return times;
}

function summary(label: string, times: Timed[]) {
  const ms = times.map((t) => t.ms).sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)];
  const statuses: Record<number, number> = {};
  for (const t of times) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1));
  return `${label}: n=${ms.length} p50=${f(at(50))} p95=${f(at(95))} max=${f(ms.at(-1))} ms statuses=${JSON.stringify(statuses)}`;
}

async function images(
  server: ChildServer,
  admin: string,
  a: ClientAccount,
  b: ClientAccount,
  side: number,
) {
  const gif = await sharp({
    create: { width: side, height: side, channels: 3, background: '#369' },
  })
    .gif()
    .toBuffer();
  const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a7' } })
    .png()
    .toBuffer();
  const attach = async (token: string, url: string) => {
    await call(server, 'POST', '/api/client/blast-requests', token, {
      message: 'Gambar',
      target_numbers: ['081234567890'],
      image_url: url,
    });
  };
  /** Uploads, then names an accepted image in a blast (untimed): the uploader stays within its
   * quota of unused images, as a client who sends its blasts does. */
  const upload = async (token: string, bytes: Buffer, type: string) => {
    const name = type === 'image/gif' ? 'a.gif' : 'a.png';
    const form = imageForm('image', bytes, name, type);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).catch(() => null);
    const body = response ? ((await response.json().catch(() => ({}))) as { url?: string }) : {};
    const timed = { status: response?.status ?? 0, ms: performance.now() - started };
    if (body.url) await attach(token, body.url);
    return timed;
  };
  const qr = () =>
    call(
      server,
      'POST',
      '/api/admin/upload-qr',
      admin,
      undefined,
      imageForm('file', tiny, 'qr.png', 'image/png'),
    );
  const quiet = await probe(performance.now() + 2000, 100, () =>
    upload(b.token, tiny, 'image/png'),
  );
  console.log(
    `images: A sends a ${side} x ${side} GIF of ${gif.length} bytes, B a PNG of ${tiny.length} bytes`,
  );
  console.log(summary('  quiet, small PNG of B', quiet));
  const until = performance.now() + SECONDS * 1000;
  const [flooded, smallTimes, qrTimes] = await Promise.all([
    flood(FLOOD_IMAGES, until, () => upload(a.token, gif, 'image/gif')),
    new Promise((resolve) => setTimeout(resolve, 500)).then(() =>
      probe(until, 200, () => upload(b.token, tiny, 'image/png')),
    ),
    new Promise((resolve) => setTimeout(resolve, 600)).then(() => probe(until, 400, qr)),
  ]);
  console.log(`  flood of A (${FLOOD_IMAGES} in flight): ${JSON.stringify(flooded)}`);
  console.log(summary('  during the flood, small PNG of B', smallTimes));
  console.log(summary('  during the flood, QR of the admin', qrTimes));
}

async function blasts(server: ChildServer, a: ClientAccount, b: ClientAccount) {
  const numbers = phoneNumbers(500);
  const topUp = () =>
    call(server, 'POST', '/api/client/point-requests', b.token, {
      points_requested: 100,
      amount_paid: 10_000,
      payment_proof_url: null,
    });
  const quiet = await probe(performance.now() + 2000, 20, topUp);
  console.log(summary('blasts: quiet, top-up of B', quiet));
  const until = performance.now() + SECONDS * 1000;
  const [flooded, times] = await Promise.all([
    flood(FLOOD_BLASTS, until, () =>
      call(server, 'POST', '/api/client/blast-requests', a.token, {
        message: 'Promo',
        target_numbers: numbers,
        image_url: null,
      }),
    ),
    new Promise((resolve) => setTimeout(resolve, 500)).then(() => probe(until, 20, topUp)),
  ]);
  console.log(`  flood of A (${FLOOD_BLASTS} in flight): ${JSON.stringify(flooded)}`);
  console.log(summary('  during the flood, top-up of B', times));
}

async function main() {
  const database = await processDatabase();
  try {
    const server = await startChild(database, {
      SEBAR_CLIENT_IN_FLIGHT: IN_FLIGHT,
      SEBAR_USER_RATE_LIMIT: RATE_LIMIT,
    });
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    await addPricing(server.url, admin);
    const settings = await call(server, 'POST', '/api/admin/settings', admin, {
      account_number: '1',
      account_name: 'A',
      bank_name: 'B',
      allow_images: true,
    });
    if (settings.status !== 200) throw new Error(`settings: ${settings.status}`);
    const a = await makeClient(server.url, admin, 100_000_000);
    const b = await makeClient(server.url, admin, 100_000);
    console.log(
      `engine ${engine}, ${SECONDS} s of flood per mode, in-flight bound ${IN_FLIGHT}, rate limit ${RATE_LIMIT}`,
    );
    // The GIF (36 megapixels), then the largest one the server now accepts.
    if (MODES.includes('images')) {
      await images(server, admin, a, b, 6000);
      await images(server, admin, a, b, 4096);
    }
    if (MODES.includes('blasts')) await blasts(server, a, b);
    await server.kill('SIGTERM');
  } finally {
    await stopChildren();
    await database.drop();
  }
}

await main();
