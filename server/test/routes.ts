// For the route-by-route tests: one object of every kind to aim at, each route's path filled
// with them, and a request each route would accept, so a refusal is the server's doing.
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { TestServer } from './helpers.ts';

export const PRICE_PER_POINT = 100;

type Account = Awaited<ReturnType<TestServer['createClient']>>;

export interface Fixtures {
  a: Account;
  b: Account;
  png: Buffer;
  contactId: string;
  noteId: string;
  tierId: string;
  /** B's pending top-up and pending blast; A's own pending blast. */
  requestId: string;
  blastId: string;
  blastOfA: string;
  /** A number the admin put on the opt-out list. */
  optOutNumber: string;
  /** B's uploaded blast image, the QR the settings name, and an older QR they do not. */
  imageName: string;
  qrName: string;
  otherQrName: string;
}

/** The admin's settings body, naming `qr` (an upload-qr answer) as the payment QR, or none. */
export const settingsBody = (qr: { file_url: string; data_url: string } | null) => ({
  account_number: '1234567890',
  account_name: 'PT Sebar',
  bank_name: 'BCA',
  barcode_url: qr?.file_url ?? null,
  qr_code_file: qr?.file_url ?? null,
  qr_data_url: qr?.data_url ?? null,
  allow_images: true,
});

export const tinyPng = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a7' } })
    .png()
    .toBuffer();

export function form(field: string, bytes: Buffer, filename = 'gambar.png', type = 'image/png') {
  const data = new FormData();
  data.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return data;
}

/** Allows images (the admin's settings), then uploads a PNG as the client: its URL. */
export async function uploadImage(server: TestServer, clientToken: string): Promise<string> {
  ok(
    await server.api('POST', '/api/admin/settings', {
      token: server.adminToken,
      body: settingsBody(null),
    }),
  );
  const uploaded = await server.api('POST', '/api/upload/image', {
    token: clientToken,
    raw: form('image', await tinyPng(), 'promo.png'),
  });
  return ok<{ url: string }>(uploaded).url;
}

function ok<T>(answer: { status: number; body: T }, status = 200): T {
  if (answer.status !== status)
    throw new Error(`fixture call failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const nameOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** Two funded clients and one object of every kind, made through the API. */
export async function seedFixtures(server: TestServer): Promise<Fixtures> {
  const { api, adminToken: token } = server;
  const png = await tinyPng();
  const tier = ok(
    await api('POST', '/api/admin/pricing', {
      token,
      body: {
        tier_name: 'Dasar',
        min_points: 1,
        max_points: 1000,
        price_per_point: PRICE_PER_POINT,
      },
    }),
    201,
  );
  const a = await server.createClient({ username: 'klien-a' });
  const b = await server.createClient({ username: 'klien-b' });
  for (const account of [a, b]) {
    ok(
      await api('PUT', `/api/admin/users/${account.user.id}`, {
        token,
        body: {
          username: account.user.username,
          email: account.user.email,
          points: 50,
          is_active: true,
        },
      }),
    );
  }
  const contact = ok(
    await api('POST', '/api/admin/contacts', {
      token,
      body: { platform: 'whatsapp', value: '081200000000', is_active: true },
    }),
    201,
  );
  const note = ok(
    await api('POST', '/api/admin/notes', { token, body: { title: 'Catatan', content: 'Isi' } }),
    201,
  );
  const otherQr = ok(
    await api('POST', '/api/admin/upload-qr', { token, raw: form('file', png) }),
  ).file_url;
  const qr = ok(await api('POST', '/api/admin/upload-qr', { token, raw: form('file', png) }));
  ok(await api('POST', '/api/admin/settings', { token, body: settingsBody(qr) }));
  const image = ok(
    await api('POST', '/api/upload/image', { token: b.token, raw: form('image', png) }),
  ).url;
  const request = ok(
    await api('POST', '/api/client/point-requests', {
      token: b.token,
      body: { points_requested: 10, amount_paid: 10 * PRICE_PER_POINT, payment_proof_url: null },
    }),
    201,
  );
  const blast = ok(
    await api('POST', '/api/client/blast-requests', {
      token: b.token,
      body: { message: 'Pesan B', target_numbers: ['081234567890'], image_url: image },
    }),
    201,
  );
  const blastOfA = ok(
    await api('POST', '/api/client/blast-requests', {
      token: a.token,
      body: { message: 'Pesan A', target_numbers: ['081234567891'], image_url: null },
    }),
    201,
  );
  const optOut = ok(
    await api('POST', '/api/admin/opt-outs', { token, body: { number: '081200007777' } }),
    201,
  );
  return {
    a,
    b,
    png,
    contactId: contact.id,
    noteId: note.id,
    tierId: tier.id,
    requestId: request.id,
    blastId: blast.id,
    blastOfA: blastOfA.id,
    optOutNumber: optOut.number,
    imageName: nameOf(image),
    qrName: nameOf(qr.file_url),
    otherQrName: nameOf(otherQr),
  };
}

/** The route's path with its parameter aimed at a real object (B's where a client owns it). */
export function pathFor(url: string, fx: Fixtures): string {
  const ids: [string, string][] = [
    ['/api/admin/users/:id', fx.b.user.id],
    ['/api/admin/contacts/:id', fx.contactId],
    ['/api/admin/notes/:id', fx.noteId],
    ['/api/admin/pricing/:id', fx.tierId],
    ['/api/admin/point-requests/:id', fx.requestId],
    ['/api/admin/blast-requests/:id', fx.blastId],
    ['/api/client/blast-requests/:id', fx.blastId],
    ['/api/admin/qr-data/:filename', fx.qrName],
    ['/api/admin/opt-outs/:number', fx.optOutNumber],
    // No template is synced in the fixtures (no Cloud API): the route answers 404 for it.
    ['/api/admin/delivery/templates/:id', '1029384756000001'],
    // No gateway device is added in the fixtures: the routes answer 404 for it.
    ['/api/admin/delivery/devices/:session', 'perangkat-1'],
    ['/uploads/:name', fx.imageName],
  ];
  if (!url.includes(':')) return url;
  const match = ids.find(([prefix]) => url.startsWith(prefix));
  if (!match) throw new Error(`no fixture for the parameter of ${url}: add one to pathFor`);
  return url.replace(/:[a-z]+/, match[1]);
}

/** A request body the route accepts (fresh each call: a form can be sent once). */
export function exampleBody(
  method: string,
  url: string,
  fx: Fixtures,
): { body?: unknown; raw?: BodyInit } {
  const unique = crypto.randomBytes(3).toString('hex');
  switch (`${method} ${url}`) {
    case 'POST /api/auth/login':
      return { body: { email: fx.a.user.email, password: fx.a.password } };
    case 'POST /api/admin/users':
      return {
        body: {
          username: `baru-${unique}`,
          email: `baru-${unique}@sebar.test`,
          password: 'rahasia-baru',
          role: 'client',
        },
      };
    case 'PUT /api/admin/users/:id':
      return {
        body: { username: 'klien-b', email: fx.b.user.email, points: 7, is_active: true },
      };
    case 'PUT /api/admin/users/:id/password':
      return { body: { new_password: 'sandi-baru-123' } };
    // A wrong current password (400): the caller's tokens stay valid for the calls after it.
    case 'POST /api/auth/change-password':
      return { body: { current_password: 'bukan-sandinya', new_password: 'sandi-baru-123' } };
    case 'POST /api/admin/contacts':
    case 'PUT /api/admin/contacts/:id':
      return { body: { platform: 'telegram', value: '@sebar', is_active: true } };
    case 'POST /api/admin/notes':
    case 'PUT /api/admin/notes/:id':
      return { body: { title: 'Judul', content: 'Konten' } };
    case 'POST /api/admin/settings':
      return {
        body: {
          account_number: '999',
          account_name: 'Sebar',
          bank_name: 'BNI',
          allow_images: true,
        },
      };
    case 'PUT /api/admin/delivery':
      return { body: { mode: 'manual', cloud_api: { messages_per_second: 30 } } };
    // No gateway is set up in the fixtures: refused with 422, nothing made.
    case 'POST /api/admin/delivery/devices':
      return { body: { session: 'perangkat-1' } };
    // Switching off: allowed for any template, whatever its status.
    case 'PUT /api/admin/delivery/templates/:id':
      return { body: { enabled: false } };
    case 'POST /api/admin/pricing':
      return {
        body: { tier_name: 'Besar', min_points: 5000, max_points: 9000, price_per_point: 80 },
      };
    case 'PUT /api/admin/pricing/:id':
      return {
        body: { tier_name: 'Dasar', min_points: 1, max_points: 1000, price_per_point: 90 },
      };
    case 'POST /api/client/point-requests':
      return {
        body: { points_requested: 5, amount_paid: 5 * PRICE_PER_POINT, payment_proof_url: null },
      };
    case 'POST /api/client/blast-requests':
      return {
        body: { message: 'Halo', target_numbers: ['081299990000'], image_url: null },
      };
    case 'POST /api/admin/blast-requests/:id/result':
      return {
        body: { successful_count: 1, failed_count: 0, no_wa_count: 0, admin_notes: null },
      };
    case 'POST /api/admin/blast-requests/:id/number-statuses':
      return { body: { number_statuses: { '0': 'success' } } };
    case 'POST /api/admin/opt-outs':
      return { body: { number: `08199${String(crypto.randomInt(1_000_000)).padStart(6, '0')}` } };
    case 'POST /api/upload/image':
      return { raw: form('image', fx.png) };
    case 'POST /api/admin/upload-qr':
      return { raw: form('file', fx.png) };
    default:
      return {};
  }
}
