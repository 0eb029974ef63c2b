// The WhatsApp gateway (WAHA) over HTTP, against the local WAHA: its settings (validated, secrets
// write-only and sealed, the mode refused without credentials, audited, 'Tes Koneksi'), its
// devices (added, paired by the QR through the double's control, logged out, removed), the signed
// webhook (refused unsigned, kept once) and the acks applied forward only.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastDeviceMessage, strandingMessage } from '#common/blast-rules.ts';
import { startLocalWaha, type LocalWaha } from '#local-apis/waha/server.ts';
import { until } from '#local-apis/waha/test-helpers.ts';
import { outcomeBySuffix } from '#local-apis/waha/outcomes.ts';
import { signBody } from '#local-apis/waha/webhooks.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';
import { applyGatewayEvents, incomingMessagesOf } from './gateway-events.ts';
import { PREVIOUS_SECRET_MS, readGateway, webhookSecrets } from './gateway.service.ts';
import { loadSecretBox } from './secret-box.ts';
import { sendMessage } from './waha.ts';

const SECRET_KEY = 'gateway-test-key-0123456789';
const WEBHOOK_SECRET = 'rahasia-webhook-waha';
const PATH = '/api/webhooks/waha';
const DEVICES = '/api/admin/delivery/devices';

let server: TestServer;
let waha: LocalWaha;
let admin = '';

beforeAll(async () => {
  // No worker: the tests apply the kept events themselves (applyGatewayEvents).
  server = await startServer({ secretKey: SECRET_KEY, deliveryWorker: false });
  admin = server.adminToken;
  waha = await startLocalWaha({ outcomes: outcomeBySuffix, ackDelayMs: 5 });
});
afterAll(async () => {
  await waha?.close();
  await server?.close();
});

const put = (body: unknown) => server.api('PUT', '/api/admin/delivery', { token: admin, body });
const get = (url: string) => server.api('GET', url, { token: admin });
const post = (url: string, body?: unknown) => server.api('POST', url, { token: admin, body });
const gatewayOf = (overrides: Record<string, unknown> = {}) => ({
  provider: 'waha',
  base_url: waha.url,
  api_key: waha.options.apiKey,
  session: 'utama',
  webhook_secret: WEBHOOK_SECRET,
  ...overrides,
});
const DEFAULT_VIEW = {
  provider: 'waha',
  base_url: '',
  api_key_set: false,
  session: 'default',
  webhook_secret_set: false,
  min_delay_seconds: 8,
  max_delay_seconds: 20,
  daily_limit_per_device: 500,
  sending_hours: '08:00-20:00',
  check_numbers: true,
};
const kept = () =>
  server.database.db
    .selectFrom('webhook_events')
    .selectAll()
    .where('source', '=', 'waha')
    .execute();
const device = async (session: string): Promise<Record<string, unknown> | undefined> =>
  ((await get(DEVICES)).body.items as { session: string }[]).find((d) => d.session === session);
/** Applies what the double posted until `check` holds. */
async function appliedUntil(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i += 1) {
    await waha.settled();
    await applyGatewayEvents(server.database, server.context.secrets);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('Timed out applying the gateway events');
}

/** A client made through the admin API, its balance set to `points`. */
async function fundedClient(points: number) {
  const client = await server.createClient();
  await server.api('PUT', `/api/admin/users/${client.user.id}`, {
    token: admin,
    body: {
      username: client.user.username,
      email: client.user.email,
      points,
      is_active: true,
    },
  });
  return client;
}

describe('gateway settings', () => {
  it('answer the defaults before any save, secrets unset', async () => {
    const answer = await get('/api/admin/delivery');
    expect(answer.status).toBe(200);
    expect(answer.body.gateway).toEqual(DEFAULT_VIEW);
  });

  it('check each field with an Indonesian message, saving nothing', async () => {
    await expectUnchanged(server.database.db, async () => {
      for (const [gateway, message] of [
        [{ base_url: 'ftp://waha' }, 'Base URL harus berupa alamat http(s)'],
        [
          { base_url: 'http://127.0.0.1:70000/waha' },
          'Base URL tidak valid: periksa nama host dan port (port maksimal 65535)',
        ],
        [{ min_delay_seconds: 0 }, 'Jeda minimal minimal 1 detik'],
        [
          { min_delay_seconds: 30, max_delay_seconds: 10 },
          'Jeda maksimal tidak boleh lebih kecil dari jeda minimal',
        ],
        [{ max_delay_seconds: 2.5 }, 'Jeda maksimal harus bilangan bulat'],
        [{ daily_limit_per_device: 0 }, 'Batas harian per perangkat minimal 1'],
        [{ sending_hours: '8-20' }, 'Jam kirim harus seperti 08:00-20:00'],
        [{ sending_hours: '25:00-26:00' }, 'Jam kirim harus seperti 08:00-20:00'],
        [{ sending_hours: '20:00-08:00' }, 'Jam mulai kirim harus lebih awal dari jam selesai'],
        [{ session: 'sesi utama' }, 'Nama sesi hanya boleh huruf, angka, _ dan -'],
        [{ api_key: '  ' }, 'API key tidak boleh kosong'],
        [{ provider: 'wppconnect' }, 'provider'],
        [{ check_numbers: 'ya' }, 'check_numbers'],
      ] as const) {
        const answer = await put({ mode: 'manual', gateway: gatewayOf(gateway) });
        expectCleanError(answer, 422);
        expect(JSON.stringify(answer.body), JSON.stringify(gateway)).toContain(message);
      }
    });
  });

  it('refuse the gateway mode while base URL, API key or webhook secret is missing', async () => {
    await expectUnchanged(server.database.db, async () => {
      const answer = await put({ mode: 'gateway', gateway: { base_url: waha.url } });
      expectCleanError(answer, 422);
      expect(answer.body.detail).toBe(
        'Mode WhatsApp Gateway belum dapat dipakai: API key, Webhook secret harus diisi',
      );
      const none = await put({ mode: 'gateway' });
      expect(none.body.detail).toBe(
        'Mode WhatsApp Gateway belum dapat dipakai: Base URL, API key, Webhook secret harus diisi',
      );
    });
  });

  it('save the gateway mode, answering each secret only as set, sealed and audited', async () => {
    const answer = await put({
      mode: 'gateway',
      gateway: gatewayOf({ min_delay_seconds: 5, check_numbers: false }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const expected = {
      ...DEFAULT_VIEW,
      base_url: waha.url,
      session: 'utama',
      api_key_set: true,
      webhook_secret_set: true,
      min_delay_seconds: 5,
      check_numbers: false,
    };
    expect(answer.body.mode).toBe('gateway');
    expect(answer.body.gateway).toEqual(expected);
    expect((await get('/api/admin/delivery')).body.gateway).toEqual(expected);
    const row = await server.database.db.selectFrom('gateway_settings').selectAll().execute();
    const audit = await server.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'delivery.update')
      .execute();
    expect(JSON.parse(audit.at(-1)!.after_json!).gateway).toEqual(expected);
    for (const text of [JSON.stringify(answer.body), JSON.stringify(row), JSON.stringify(audit)]) {
      expect(text).not.toContain(waha.options.apiKey);
      expect(text).not.toContain(WEBHOOK_SECRET);
    }
    const opened = await readGateway(
      server.database.db,
      await loadSecretBox(server.database.db, SECRET_KEY),
    );
    expect(opened).toMatchObject({ api_key: waha.options.apiKey, webhook_secret: WEBHOOK_SECRET });
  });

  it('keep the secrets a save leaves out, and the gateway when a save names none', async () => {
    const { api_key, webhook_secret, ...open } = gatewayOf();
    void api_key;
    void webhook_secret;
    expect((await put({ mode: 'gateway', gateway: open })).status).toBe(200);
    // The Cloud API's body as before: the gateway stays as saved.
    const cloud = await put({ mode: 'manual', cloud_api: { messages_per_second: 30 } });
    expect(cloud.status).toBe(200);
    expect(cloud.body.gateway).toMatchObject({ api_key_set: true, webhook_secret_set: true });
    expect(cloud.body.gateway.base_url).toBe(waha.url);
    expect((await put({ mode: 'gateway' })).status).toBe(200);
  });

  it('refuse emptying the gateway while its blasts have numbers to send, saving nothing', async () => {
    expect((await put({ mode: 'gateway', gateway: gatewayOf() })).status).toBe(200);
    const client = await fundedClient(10);
    // No worker runs here: the blast's two numbers stay queued.
    const created = await server.api('POST', '/api/client/blast-requests', {
      token: client.token,
      body: { message: 'Halo', target_numbers: ['081277771001', '081277771002'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const emptied = { mode: 'manual', gateway: gatewayOf({ base_url: '' }) };
    await expectUnchanged(server.database.db, async () => {
      const refused = await put(emptied);
      expectCleanError(refused, 409);
      expect(refused.body.detail).toBe(strandingMessage('gateway', 2));
    });
    const cancelled = await server.api(
      'POST',
      `/api/client/blast-requests/${created.body.id}/cancel`,
      { token: client.token },
    );
    expect(cancelled.status).toBe(200);
    const saved = await put(emptied);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.gateway.base_url).toBe('');
    expect((await put({ mode: 'gateway', gateway: gatewayOf() })).status).toBe(200);
  });

  it('Tes Koneksi reaches the local WAHA, and says when the key or the address is wrong', async () => {
    const test = () => post('/api/admin/delivery/gateway/test');
    expect((await test()).body).toMatchObject({
      ok: true,
      message: expect.stringContaining('Terhubung ke WAHA'),
    });
    // The mode's own check answers the same in the gateway mode.
    expect((await post('/api/admin/delivery/test')).body.ok).toBe(true);

    await put({ mode: 'gateway', gateway: gatewayOf({ api_key: 'kunci-salah' }) });
    expect((await test()).body).toMatchObject({
      ok: false,
      message: 'API key WAHA ditolak (HTTP 401)',
    });
    // An address that is not WAHA's: Sebar's own server.
    await put({ mode: 'gateway', gateway: gatewayOf({ base_url: server.url }) });
    expect((await test()).body).toMatchObject({
      ok: false,
      message: `Alamat ${server.url} tidak menjawab sebagai WAHA: daftar sesi /api/sessions tidak ditemukan (HTTP 404)`,
    });
    const closed = await closedPort();
    await put({ mode: 'gateway', gateway: gatewayOf({ base_url: `http://127.0.0.1:${closed}` }) });
    expect((await test()).body).toEqual({
      ok: false,
      message: `WAHA di http://127.0.0.1:${closed} tidak dapat dihubungi`,
      display_phone_number: null,
      verified_name: null,
    });
    await put({ mode: 'gateway', gateway: gatewayOf() });
  });
});

describe('gateway devices', () => {
  it('are the admin’s alone', async () => {
    const client = (await server.createClient()).token;
    for (const [method, url] of [
      ['GET', DEVICES],
      ['POST', DEVICES],
      ['GET', `${DEVICES}/utama/qr`],
      ['POST', `${DEVICES}/utama/logout`],
      ['POST', `${DEVICES}/utama/resume`],
      ['DELETE', `${DEVICES}/utama`],
      ['POST', '/api/admin/delivery/gateway/test'],
    ] as const) {
      const body = method === 'POST' ? {} : undefined;
      expectCleanError(await server.api(method, url, { token: client, body }), 403);
      expectCleanError(await server.api(method, url, { body }), 401);
    }
  });

  it('pair by the QR: added, SCAN_QR_CODE, a PNG, then WORKING with the number', async () => {
    const added = await post(DEVICES, { session: 'hp-satu' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ session: 'hp-satu', phone: null, sent_today: 0 });
    // Its webhook points at this server, signed with the webhook secret.
    const webhook = waha.session('hp-satu')!.config.webhooks![0]!;
    expect(webhook.url).toBe(`${server.url}${PATH}`);
    expect(webhook.hmac?.key).toBe(WEBHOOK_SECRET);
    expectCleanError(await post(DEVICES, { session: 'hp-satu' }), 409);
    expectCleanError(await post(DEVICES, { session: 'bukan nama' }), 422);

    await until(() => waha.session('hp-satu')?.status === 'SCAN_QR_CODE');
    const listed = await get(DEVICES);
    expect(listed.body).toMatchObject({ live: true, message: null });
    expect(await device('hp-satu')).toMatchObject({ status: 'SCAN_QR_CODE' });
    const qr = await fetch(`${server.url}${DEVICES}/hp-satu/qr`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await qr.arrayBuffer());
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

    waha.pair('hp-satu', '6281100000001', 'Toko Sari');
    await appliedUntil(async () => {
      const row = await server.database.db
        .selectFrom('gateway_devices')
        .selectAll()
        .where('session', '=', 'hp-satu')
        .executeTakeFirst();
      return row?.status === 'WORKING';
    });
    expect(await device('hp-satu')).toMatchObject({
      status: 'WORKING',
      phone: '6281100000001',
      push_name: 'Toko Sari',
      pause_reason: null,
    });
    const refused = await get(`${DEVICES}/hp-satu/qr`);
    expectCleanError(refused, 409);
    expect(refused.body.detail).toBe('Perangkat sudah terhubung: tidak perlu memindai QR');
    expectCleanError(await get(`${DEVICES}/tidak-ada/qr`), 404);
  });

  it('keep their events taken when the webhook secret changes, or refuse the change', async () => {
    const NEW_SECRET = 'rahasia-webhook-baru';
    const since = Date.now();
    const saved = await put({
      mode: 'gateway',
      gateway: gatewayOf({ webhook_secret: NEW_SECRET }),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // WAHA signs the device's events with the new secret, and restarted the session with it:
    // its status events are taken, none refused, nor those signed with the old one just before.
    expect(waha.session('hp-satu')!.config.webhooks![0]!.hmac?.key).toBe(NEW_SECRET);
    await until(() => waha.session('hp-satu')?.status === 'WORKING');
    console.log(
      Date.now() - since,
      JSON.stringify(
        waha.webhooks.filter((w) => w.at >= since).map((w) => [w.event, w.status, w.attempt]),
      ),
    );
    await waha.settled();
    // One signed with the new secret before Sebar saved it may be refused once; WAHA's retry is
    // taken.
    const posted = waha.webhooks.filter((w) => w.session === 'hp-satu' && w.at >= since);
    const bodies = [...new Set(posted.map((w) => w.body))];
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(
        posted.some((w) => w.body === body && w.status === 200),
        body,
      ).toBe(true);
    }

    // Another WAHA that cannot be reached: the devices keep the secret, and so does Sebar.
    const closed = await closedPort();
    const away = gatewayOf({ base_url: `http://127.0.0.1:${closed}`, webhook_secret: 'lain' });
    await expectUnchanged(server.database.db, async () => {
      const refused = await put({ mode: 'gateway', gateway: away });
      expect(refused.status).toBe(502);
      expect(refused.body.detail).toBe(
        `Webhook perangkat hp-satu tidak dapat diperbarui: WAHA di http://127.0.0.1:${closed} ` +
          'tidak dapat dihubungi. Pengaturan tidak disimpan',
      );
    });
    expect(waha.session('hp-satu')!.config.webhooks![0]!.hmac?.key).toBe(NEW_SECRET);

    expect((await put({ mode: 'gateway', gateway: gatewayOf() })).status).toBe(200);
    expect(waha.session('hp-satu')!.config.webhooks![0]!.hmac?.key).toBe(WEBHOOK_SECRET);
    await until(() => waha.session('hp-satu')?.status === 'WORKING');
  });

  it('still list, as last heard, when WAHA cannot be reached, saying so', async () => {
    const closed = await closedPort();
    await put({ mode: 'gateway', gateway: gatewayOf({ base_url: `http://127.0.0.1:${closed}` }) });
    const list = await get(DEVICES);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      live: false,
      message: `Status perangkat mungkin tidak terbaru: WAHA di http://127.0.0.1:${closed} tidak dapat dihubungi`,
    });
    expect(await device('hp-satu')).toMatchObject({ status: 'WORKING', phone: '6281100000001' });
    await put({ mode: 'gateway', gateway: gatewayOf() });
  });

  it('log out, pause with the reason, resume, start again and remove, audited', async () => {
    await post(DEVICES, { session: 'hp-dua' });
    await until(() => waha.session('hp-dua')?.status === 'SCAN_QR_CODE');
    waha.pair('hp-dua', '6281100000002');
    await until(() => waha.session('hp-dua')?.status === 'WORKING');

    const out = await post(`${DEVICES}/hp-dua/logout`);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body).toMatchObject({ session: 'hp-dua', phone: null });
    expect(out.body.status).not.toBe('WORKING');
    expect(out.body.pause_reason).toMatch(/dikeluarkan|berhenti/);
    expect(waha.session('hp-dua')?.account ?? null).toBeNull();

    const resumed = await post(`${DEVICES}/hp-dua/resume`);
    expect(resumed.body).toMatchObject({ pause_reason: null, paused_until: null });

    // A device that fails (unlinked on the phone) is paused with the reason.
    await post(DEVICES, { session: 'hp-tiga' });
    await until(() => waha.session('hp-tiga')?.status === 'SCAN_QR_CODE');
    waha.pair('hp-tiga');
    await until(() => waha.session('hp-tiga')?.status === 'WORKING');
    waha.drop('hp-tiga');
    await appliedUntil(async () => (await device('hp-tiga'))?.status === 'FAILED');
    expect(await device('hp-tiga')).toMatchObject({
      status: 'FAILED',
      pause_reason: 'Sesi WhatsApp gagal (perangkat terputus): tekan Jalankan, lalu pindai QR baru',
    });
    const started = await post(`${DEVICES}/hp-tiga/start`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);

    const removed = await server.api('DELETE', `${DEVICES}/hp-tiga`, { token: admin });
    expect(removed.status).toBe(200);
    expect(await device('hp-tiga')).toBeUndefined();
    expect(waha.session('hp-tiga')).toBeUndefined();
    expectCleanError(await server.api('DELETE', `${DEVICES}/hp-tiga`, { token: admin }), 404);

    const actions = await server.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'gateway.device.%')
      .execute();
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set([
        'gateway.device.add',
        'gateway.device.logout',
        'gateway.device.resume',
        'gateway.device.start',
        'gateway.device.remove',
      ]),
    );
  });
});

describe('session status events', () => {
  const heard = (session: string, status: string, timestamp: number) => {
    const body = JSON.stringify({
      id: `evt_${session}_${status}_${timestamp}`,
      timestamp,
      event: 'session.status',
      session,
      payload: { name: session, status },
    });
    return server.api('POST', PATH, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-webhook-hmac': signBody(body, WEBHOOK_SECRET),
        'x-webhook-hmac-algorithm': 'sha512',
      },
    });
  };

  it('change nothing when older than the status last heard, as WAHA posts them unordered', async () => {
    await post(DEVICES, { session: 'hp-lima' });
    await until(() => waha.session('hp-lima')?.status === 'SCAN_QR_CODE');
    waha.pair('hp-lima', '6281100000005');
    await appliedUntil(async () => (await device('hp-lima'))?.status === 'WORKING');

    // The QR's event, made before the pairing, comes last: the device stays WORKING.
    const row = () =>
      server.database.db
        .selectFrom('gateway_devices')
        .select(['status', 'pause_reason'])
        .where('session', '=', 'hp-lima')
        .executeTakeFirstOrThrow();
    expect((await heard('hp-lima', 'SCAN_QR_CODE', Date.now() - 60_000)).status).toBe(200);
    await applyGatewayEvents(server.database, server.context.secrets);
    expect(await row()).toEqual({ status: 'WORKING', pause_reason: null });

    // A newer one is applied.
    expect((await heard('hp-lima', 'FAILED', Date.now())).status).toBe(200);
    await applyGatewayEvents(server.database, server.context.secrets);
    expect(await row()).toEqual({
      status: 'FAILED',
      pause_reason: 'Sesi WhatsApp gagal (perangkat terputus): tekan Jalankan, lalu pindai QR baru',
    });
    expect((await server.api('DELETE', `${DEVICES}/hp-lima`, { token: admin })).status).toBe(200);
    await waha.settled();
  });
});

describe('the WAHA webhook', () => {
  const event = (id: string) =>
    `{"id": "evt_${id}", "timestamp": 1764300000000, "event": "session.status", "session": "hp-x", "payload": {"name": "hp-x", "status": "STARTING"}}`;
  const send = (body: string, headers: Record<string, string> = {}) =>
    server.api('POST', PATH, {
      raw: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const signed = (body: string, key = WEBHOOK_SECRET) => ({
    'x-webhook-hmac': signBody(body, key),
    'x-webhook-hmac-algorithm': 'sha512',
  });

  it('refuses a missing, wrong or re-serialised signature with 401, keeping nothing', async () => {
    const body = event('tolak');
    await expectUnchanged(server.database.db, async () => {
      expectCleanError(await send(body), 401);
      expectCleanError(await send(body, signed(body, 'kunci-lain')), 401);
      expectCleanError(await send(body, { 'x-webhook-hmac': 'abc' }), 401);
      // Signed over the same JSON written another way: not the bytes that came.
      const reserialised = JSON.stringify(JSON.parse(body));
      expectCleanError(await send(body, signed(reserialised)), 401);
      expectCleanError(
        await send(body, { ...signed(body), 'x-webhook-hmac-algorithm': 'sha256' }),
        401,
      );
    });
  });

  it('takes the secret a change replaced for an hour, then no more', async () => {
    // The devices' test changed the secret to 'rahasia-webhook-baru' and back.
    const box = await loadSecretBox(server.database.db, SECRET_KEY);
    const now = Date.now();
    expect(await webhookSecrets(server.database.db, box, now)).toEqual([
      WEBHOOK_SECRET,
      'rahasia-webhook-baru',
    ]);
    const body = event('kunci-lama');
    expect((await send(body, signed(body, 'rahasia-webhook-baru'))).status).toBe(200);
    const later = now + PREVIOUS_SECRET_MS + 1000;
    expect(await webhookSecrets(server.database.db, box, later)).toEqual([WEBHOOK_SECRET]);
  });

  it('keeps a signed event once, even when posted twice', async () => {
    const body = event('sekali');
    const before = (await kept()).length;
    const answers = await Promise.all([send(body, signed(body)), send(body, signed(body))]);
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [200, { received: true }],
      [200, { received: true }],
    ]);
    expect(await kept()).toHaveLength(before + 1);
  });

  it('reads incoming messages for the opt-out list', () => {
    const incoming = {
      event: 'message',
      session: 'hp-satu',
      payload: { from: '6281234567890@c.us', fromMe: false, body: 'STOP' },
    };
    expect(incomingMessagesOf(incoming)).toEqual([
      { session: 'hp-satu', from: '6281234567890', lid: null, text: 'STOP' },
    ]);
    // A hidden id: its number is asked of WAHA, unless the event carries it (NOWEB).
    const hidden = { ...incoming.payload, from: '123456789012345@lid' };
    expect(incomingMessagesOf({ ...incoming, payload: hidden })).toEqual([
      { session: 'hp-satu', from: null, lid: '123456789012345@lid', text: 'STOP' },
    ]);
    const alt = { ...hidden, _data: { key: { remoteJidAlt: '6281234567890@s.whatsapp.net' } } };
    expect(incomingMessagesOf({ ...incoming, payload: alt })).toEqual([
      { session: 'hp-satu', from: '6281234567890', lid: null, text: 'STOP' },
    ]);
    expect(
      incomingMessagesOf({ ...incoming, payload: { ...incoming.payload, fromMe: true } }),
    ).toEqual([]);
    expect(
      incomingMessagesOf({ ...incoming, payload: { ...incoming.payload, from: '1203@g.us' } }),
    ).toEqual([]);
  });
});

describe('gateway acks', () => {
  it('move each number forward only, in any order and repeated, and settle the blast', async () => {
    // A blast made in manual mode, its numbers then sent by the paired device as the engine would
    // (the send's answer recorded as sent).
    await put({ mode: 'manual' });
    const client = await fundedClient(10);
    // Suffixes: 0012 played, 0008 every ack twice, 0009 READ before DEVICE, 0002 ack ERROR.
    const numbers = ['6281277770012', '6281277770008', '6281277770009', '6281277770002'];
    const created = await server.api('POST', '/api/client/blast-requests', {
      token: client.token,
      body: {
        message: 'Halo',
        target_numbers: numbers.map((n) => `0${n.slice(2)}`),
        image_url: null,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const blastId = created.body.id as string;
    await put({ mode: 'gateway' });
    const { db } = server.database;
    await db
      .updateTable('blasts')
      .set({ delivery_mode: 'gateway' })
      .where('id', '=', blastId)
      .execute();
    const connection = { base_url: waha.url, api_key: waha.options.apiKey };
    for (const [idx, number] of numbers.entries()) {
      const id = await sendMessage(connection, {
        session: 'hp-satu',
        number,
        text: 'Halo',
        image: null,
      });
      await db
        .updateTable('blast_numbers')
        .set({
          state: 'sent',
          device: 'hp-satu',
          provider_message_id: id,
          claimed_at: new Date().toISOString(),
          sent_at: new Date().toISOString(),
        })
        .where('blast_id', '=', blastId)
        .where('idx', '=', idx)
        .execute();
    }
    const states = async () =>
      (
        await db
          .selectFrom('blast_numbers')
          .select(['state', 'status'])
          .where('blast_id', '=', blastId)
          .orderBy('idx')
          .execute()
      ).map((row) => row.state);
    await appliedUntil(
      async () => JSON.stringify(await states()) === '["read","read","read","failed"]',
    );

    // Every kept ack posted again, newest first: nothing moves back, nothing is kept twice.
    const acks = (await kept()).filter((row) => row.body.includes('"message.ack"'));
    expect(acks.length).toBeGreaterThan(0);
    const before = (await kept()).length;
    for (const row of acks.reverse()) {
      const answer = await server.api('POST', PATH, {
        raw: row.body,
        headers: {
          'content-type': 'application/json',
          'x-webhook-hmac': signBody(row.body, WEBHOOK_SECRET),
        },
      });
      expect(answer.status).toBe(200);
    }
    expect(await kept()).toHaveLength(before);
    await applyGatewayEvents(server.database, server.context.secrets);
    expect(await states()).toEqual(['read', 'read', 'read', 'failed']);

    const blast = (
      await server.api('GET', `/api/client/blast-requests/${blastId}`, {
        token: client.token,
      })
    ).body;
    expect(blast).toMatchObject({
      status: 'completed',
      successful_count: 3,
      failed_count: 1,
      refund_points: 1,
    });
    const devices = (await get(DEVICES)).body.items as { session: string; sent_today: number }[];
    expect(devices.find((d) => d.session === 'hp-satu')!.sent_today).toBe(4);
    expect(
      (
        await db
          .selectFrom('webhook_events')
          .select('id')
          .where('processed_at', 'is', null)
          .where('source', '=', 'waha')
          .execute()
      ).length,
    ).toBe(0);
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the last device', () => {
  it('is kept while its blasts have numbers to send, saving nothing', async () => {
    expect((await put({ mode: 'gateway', gateway: gatewayOf() })).status).toBe(200);
    for (const { session } of (await get(DEVICES)).body.items as { session: string }[]) {
      expect((await server.api('DELETE', `${DEVICES}/${session}`, { token: admin })).status).toBe(
        200,
      );
    }
    await post(DEVICES, { session: 'hp-akhir' });
    // Its status events (STARTING, then SCAN_QR_CODE) are kept before the refusal is looked at.
    await until(() => waha.session('hp-akhir')?.status === 'SCAN_QR_CODE');
    await waha.settled();
    const client = await fundedClient(10);
    // No worker runs here: the blast's two numbers stay queued.
    const created = await server.api('POST', '/api/client/blast-requests', {
      token: client.token,
      body: { message: 'Halo', target_numbers: ['081277772001', '081277772002'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const remove = (session: string) =>
      server.api('DELETE', `${DEVICES}/${session}`, { token: admin });
    await expectUnchanged(server.database.db, async () => {
      const refused = await remove('hp-akhir');
      expectCleanError(refused, 409);
      expect(refused.body.detail).toBe(lastDeviceMessage(2));
    });
    expect(waha.session('hp-akhir')).toBeDefined();

    // With another device, it may go; then the other is the last one.
    await post(DEVICES, { session: 'hp-baru' });
    expect((await remove('hp-akhir')).status).toBe(200);
    expectCleanError(await remove('hp-baru'), 409);
    const cancelled = await server.api(
      'POST',
      `/api/client/blast-requests/${created.body.id}/cancel`,
      { token: client.token },
    );
    expect(cancelled.status).toBe(200);
    expect((await remove('hp-baru')).status).toBe(200);
    await waha.settled();
  });
});

describe('the sending hours', () => {
  it('are taken as id-ID writes times too, and kept as HH:MM-HH:MM', async () => {
    const saved = await put({
      mode: 'gateway',
      gateway: gatewayOf({ sending_hours: '08.00 - 23.59' }),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.gateway.sending_hours).toBe('08:00-23:59');
    expect((await put({ mode: 'gateway', gateway: gatewayOf() })).status).toBe(200);
  });
});
