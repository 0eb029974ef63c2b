// The local WAHA behaves as WAHA's documentation says: API key, session lifecycle with
// session.status events, the pairing QR, sends and their answers, check-exists, typing, signed
// webhooks with retries, scripted acks, WhatsApp's 463/475 refusals and incoming messages.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeBySuffix } from './outcomes.ts';
import { startLocalWaha, type LocalWaha, type LocalWahaOptions } from './server.ts';
import {
  call,
  pairedSession,
  sessionRequest,
  startReceiver,
  until,
  type Receiver,
} from './test-helpers.ts';
import { retryDelayMs } from './webhooks.ts';

const KEY = 'rahasia-webhook';
const PHONE = '6281100000001';

let waha: LocalWaha | undefined;
let receiver: Receiver | undefined;
let files: Server | undefined;

afterEach(async () => {
  await waha?.close();
  await receiver?.close();
  await new Promise((resolve) => (files ? files.close(resolve) : resolve(undefined)));
  waha = undefined;
  receiver = undefined;
  files = undefined;
});

/** A double posting to a fresh receiver; sessions start in 10 ms, calls wait 200 ms at most. */
async function start(options: Partial<LocalWahaOptions> = {}, answer?: (n: number) => number) {
  receiver = await startReceiver(answer ? { answer } : {});
  waha = await startLocalWaha({ startingMs: 10, statusWaitMs: 200, ackDelayMs: 5, ...options });
  return { waha, receiver };
}

/** A double with one WORKING session `hp1` paired as PHONE. */
async function startPaired(options: Partial<LocalWahaOptions> = {}) {
  const started = await start(options);
  await pairedSession(started.waha, 'hp1', started.receiver.url, KEY, PHONE);
  return started;
}

function sendText(w: LocalWaha, chatId: string, text = 'Halo', session = 'hp1') {
  return call(w, 'POST', '/api/sendText', { json: { session, chatId, text } });
}

/**
 * The acks received for a message id, as [ack, ackName] pairs, in the order the double fired them
 * (by the envelope's timestamp: posts run concurrently and may arrive in another order).
 */
function acksOf(r: Receiver, id: string) {
  return r
    .events('message.ack')
    .filter((hook) => hook.payload.id === id)
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((hook) => [hook.payload.ack, hook.payload.ackName]);
}

function statusesOf(r: Receiver, session = 'hp1') {
  return r
    .events('session.status')
    .filter((hook) => hook.session === session)
    .map((hook) => hook.payload.status);
}

describe('API key', () => {
  it('refuses a missing or wrong X-Api-Key with 401, takes the header or the query', async () => {
    const { waha } = await start();
    const missing = await call(waha, 'GET', '/api/sessions', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: 'Unauthorized', statusCode: 401 });
    const wrong = await call(waha, 'POST', '/api/sendText', {
      json: { session: 'x', chatId: '62811@c.us', text: 'a' },
      key: 'salah',
    });
    expect(wrong.status).toBe(401);
    expect((await call(waha, 'GET', '/api/sessions')).status).toBe(200);
    const query = await call(waha, 'GET', '/api/sessions?x-api-key=local-waha-key', { key: null });
    expect(query.status).toBe(200);
    expect((await call(waha, 'GET', '/_local/sends', { key: null })).status).toBe(200);
  });
});

describe('sessions', () => {
  it('runs the lifecycle, posting session.status on every change', async () => {
    const { waha, receiver } = await start();
    const created = await call(waha, 'POST', '/api/sessions', {
      json: sessionRequest('hp1', receiver.url, KEY),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'hp1', status: 'STARTING', me: null });
    await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
    waha.pair('hp1', PHONE, 'Toko Budi');
    const working = await call(waha, 'GET', '/api/sessions/hp1');
    expect(working.body).toMatchObject({
      name: 'hp1',
      status: 'WORKING',
      me: { id: '6281100000001@c.us', pushName: 'Toko Budi' },
      config: { webhooks: [{ url: receiver.url, hmac: { key: KEY } }] },
    });

    expect((await call(waha, 'POST', '/api/sessions/hp1/stop')).body.status).toBe('STOPPED');
    expect((await call(waha, 'GET', '/api/sessions')).body).toEqual([]);
    expect((await call(waha, 'GET', '/api/sessions?all=true')).body).toHaveLength(1);
    await call(waha, 'POST', '/api/sessions/hp1/start');
    // Paired before: it works again without a scan.
    await until(() => waha.session('hp1')?.status === 'WORKING');
    await call(waha, 'POST', '/api/sessions/hp1/logout');
    await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
    expect(waha.session('hp1')?.account).toBeNull();
    await waha.settled();
    const lifecycle = [
      'STARTING',
      'SCAN_QR_CODE',
      'WORKING',
      'STOPPED',
      'STARTING',
      'WORKING',
      'STOPPED',
      'STARTING',
      'SCAN_QR_CODE',
    ];
    expect(
      waha
        .session('hp1')
        ?.statuses.slice(1)
        .map((s) => s.status),
    ).toEqual(lifecycle);
    // Events are posted concurrently, as WAHA posts them: one each, in any order.
    expect(statusesOf(receiver).sort()).toEqual([...lifecycle].sort());
    const workingEvent = receiver
      .events('session.status')
      .find((hook) => hook.payload.status === 'WORKING');
    expect(workingEvent).toMatchObject({
      event: 'session.status',
      session: 'hp1',
      me: { id: '6281100000001@c.us', pushName: 'Toko Budi' },
      payload: { name: 'hp1', status: 'WORKING' },
      engine: 'GOWS',
    });
    expect(workingEvent.payload.statuses.at(-1)).toEqual({
      status: 'WORKING',
      timestamp: expect.any(Number),
    });

    expect((await call(waha, 'DELETE', '/api/sessions/hp1')).status).toBe(200);
    const gone = await call(waha, 'GET', '/api/sessions/hp1');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      message: 'Session not found',
      error: 'Not Found',
      statusCode: 404,
    });
  });

  it('refuses a taken name with 422, bad config with 400; start: false stays STOPPED', async () => {
    const { waha, receiver } = await start();
    const request = { ...sessionRequest('hp1', receiver.url, KEY), start: false };
    expect((await call(waha, 'POST', '/api/sessions', { json: request })).body.status).toBe(
      'STOPPED',
    );
    const again = await call(waha, 'POST', '/api/sessions', { json: request });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("Session 'hp1' already exists. Use PUT to update it.");
    const badEvent = await call(waha, 'POST', '/api/sessions', {
      json: { name: 'hp2', config: { webhooks: [{ url: receiver.url, events: ['nope'] }] } },
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body).toMatchObject({ error: 'Bad Request', statusCode: 400 });
    const unnamed = await call(waha, 'POST', '/api/sessions', { json: { start: false } });
    expect(unnamed.body.name).toMatch(/^session_[0-9a-z]{26}$/);
  });

  it('PUT replaces the config and restarts a running session with it', async () => {
    const { waha, receiver } = await startPaired();
    const other = await startReceiver();
    try {
      const updated = await call(waha, 'PUT', '/api/sessions/hp1', {
        json: { config: sessionRequest('hp1', other.url, 'lain').config },
      });
      expect(updated.status).toBe(200);
      await until(() => waha.session('hp1')?.status === 'WORKING');
      await waha.settled();
      // STOPPED still went by the old config; the restart goes by the new one.
      expect(statusesOf(receiver)).toContain('STOPPED');
      expect(statusesOf(other).sort()).toEqual(['STARTING', 'WORKING']);
    } finally {
      await other.close();
    }
  });
});

describe('pairing QR', () => {
  it('gives a PNG, a base64 image and the raw value while SCAN_QR_CODE', async () => {
    const { waha, receiver } = await start();
    await call(waha, 'POST', '/api/sessions', { json: sessionRequest('hp1', receiver.url, KEY) });
    // Asked while still STARTING, the call waits for SCAN_QR_CODE as WAHA's does.
    const image = await call(waha, 'GET', '/api/hp1/auth/qr?format=image');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.body.subarray(0, 8)).toEqual(Buffer.from('89504e470d0a1a0a', 'hex'));
    const meta = await sharp(image.body).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 328, height: 328 });
    const base64 = await call(waha, 'GET', '/api/hp1/auth/qr', { accept: 'application/json' });
    expect(base64.body).toEqual({ mimetype: 'image/png', data: image.body.toString('base64') });
    const raw = await call(waha, 'GET', '/api/hp1/auth/qr?format=raw');
    expect(raw.body).toEqual({ value: expect.stringMatching(/^2@/) });
    expect(raw.body.value).toBe(waha.session('hp1')?.qr);
  });

  it('answers 422 once paired and 404 when stopped; pairing is refused outside SCAN_QR_CODE', async () => {
    const { waha } = await startPaired();
    const paired = await call(waha, 'GET', '/api/hp1/auth/qr');
    expect(paired.status).toBe(422);
    expect(paired.body).toEqual({
      error: 'Session status is not as expected. Try again later or restart the session',
      session: 'hp1',
      status: 'WORKING',
      expected: ['SCAN_QR_CODE'],
    });
    const again = await call(waha, 'POST', '/_local/sessions/hp1/pair', { json: {} });
    expect(again.status).toBe(409);
    await call(waha, 'POST', '/api/sessions/hp1/stop');
    expect((await call(waha, 'GET', '/api/hp1/auth/qr')).status).toBe(404);
  });

  it('renews the QR while nobody scans, each time with a SCAN_QR_CODE', async () => {
    const { waha, receiver } = await start({ qrRefreshMs: 30 });
    await call(waha, 'POST', '/api/sessions', { json: sessionRequest('hp1', receiver.url, KEY) });
    await until(() => statusesOf(receiver).length >= 3);
    const first = waha.session('hp1')?.qr;
    await until(() => statusesOf(receiver).length >= 4);
    expect(waha.session('hp1')?.qr).not.toBe(first);
    const paired = await call(waha, 'POST', '/_local/sessions/hp1/pair', {
      json: { phone: '+62 811-0000-0002' },
    });
    expect(paired.body.me.id).toBe('6281100000002@c.us');
    await waha.settled();
    const history = waha.session('hp1')?.statuses.map((s) => s.status) ?? [];
    expect(history.at(-1)).toBe('WORKING');
    expect(new Set(history.slice(2, -1))).toEqual(new Set(['SCAN_QR_CODE']));
    expect(statusesOf(receiver)).toHaveLength(history.length - 1);
  });
});

describe('sending', () => {
  it('sendText answers 201 with the message id and records the send', async () => {
    const { waha } = await startPaired();
    const answer = await call(waha, 'POST', '/api/sendText', {
      json: { session: 'hp1', chatId: '6281234567890@c.us', text: 'Halo Budi', linkPreview: false },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^true_6281234567890@c\.us_3EB0[0-9A-F]{18}$/),
      _data: { extendedTextMessage: { text: 'Halo Budi' } },
    });
    expect(waha.sends[0]).toMatchObject({
      session: 'hp1',
      chatId: '6281234567890@c.us',
      kind: 'text',
      text: 'Halo Budi',
      id: answer.body.id,
    });
    // A bare number is a chat id too, as WAHA adds the suffix.
    expect((await sendText(waha, '6281234567891')).status).toBe(201);
    expect(waha.sentTo('6281234567891')).toHaveLength(1);
  });

  it('refuses a malformed chatId, an unknown or stopped session, and one not WORKING', async () => {
    const { waha, receiver } = await startPaired();
    const bad = await sendText(waha, '+62 812-abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message[0]).toContain('chatId');
    const unknown = await sendText(waha, '6281234567890@c.us', 'x', 'nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("We didn't find a session with name 'nope'");
    await call(waha, 'POST', '/api/sessions', { json: sessionRequest('hp2', receiver.url, KEY) });
    await until(() => waha.session('hp2')?.status === 'SCAN_QR_CODE');
    const waiting = await sendText(waha, '6281234567890@c.us', 'x', 'hp2');
    expect(waiting.status).toBe(422);
    expect(waiting.body).toMatchObject({ status: 'SCAN_QR_CODE', expected: ['WORKING'] });
    expect(waha.sends).toHaveLength(0);
  });

  it('sendImage decodes data or fetches the url, and fails like WAHA when the url does not', async () => {
    const { waha } = await startPaired();
    const png = await sharp({
      create: { width: 4, height: 4, channels: 3, background: '#ff0000' },
    })
      .png()
      .toBuffer();
    files = createServer((request, response) => {
      if (request.url === '/promo.png') response.writeHead(200).end(png);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files?.listen(0, '127.0.0.1', resolve));
    const address = files.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const image = (file: Record<string, unknown>) =>
      call(waha, 'POST', '/api/sendImage', {
        json: { session: 'hp1', chatId: '6281234567890@c.us', file, caption: 'Promo' },
      });

    const byData = await image({
      mimetype: 'image/png',
      filename: 'a.png',
      data: png.toString('base64'),
    });
    expect(byData.status).toBe(201);
    expect(byData.body._data.imageMessage).toMatchObject({
      caption: 'Promo',
      mimetype: 'image/png',
    });
    const byUrl = await image({ mimetype: 'image/png', url: `${base}/promo.png` });
    expect(byUrl.status).toBe(201);
    expect(
      waha.sends.map((s) => [s.kind, s.caption, s.file?.source, s.file?.detectedMime]),
    ).toEqual([
      ['image', 'Promo', 'data', 'image/png'],
      ['image', 'Promo', 'url', 'image/png'],
    ]);
    expect(waha.sends[0]?.file?.sha256).toBe(waha.sends[1]?.file?.sha256);

    const missing = await image({ mimetype: 'image/png', url: `${base}/hilang.png` });
    expect(missing.status).toBe(500);
    expect(missing.body.exception.message).toContain('404');
    expect((await image({ mimetype: 'image/png' })).status).toBe(400);
    expect(waha.sends).toHaveLength(2);
  });

  it('check-exists says whether a number is on WhatsApp, and is recorded', async () => {
    const { waha } = await startPaired({ outcomes: { '6281234560001': 'not_on_whatsapp' } });
    const yes = await call(
      waha,
      'GET',
      '/api/contacts/check-exists?phone=6281234567890&session=hp1',
    );
    expect(yes.body).toEqual({ numberExists: true, chatId: '6281234567890@c.us' });
    const no = await call(
      waha,
      'GET',
      '/api/contacts/check-exists?phone=6281234560001&session=hp1',
    );
    expect(no.body).toEqual({ numberExists: false, chatId: null });
    expect(waha.checks.map((c) => [c.phone, c.numberExists])).toEqual([
      ['6281234567890', true],
      ['6281234560001', false],
    ]);
  });

  it('records typing and seen with their times, before the send they precede', async () => {
    const { waha } = await startPaired();
    const chat = { session: 'hp1', chatId: '6281234567890@c.us' };
    const typing = await call(waha, 'POST', '/api/startTyping', { json: chat });
    expect(typing).toMatchObject({ status: 201, body: { result: true } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await call(waha, 'POST', '/api/stopTyping', { json: chat })).body).toEqual({
      result: true,
    });
    await sendText(waha, chat.chatId);
    expect((await call(waha, 'POST', '/api/sendSeen', { json: chat })).status).toBe(201);
    expect(waha.presence.map((p) => p.action)).toEqual(['startTyping', 'stopTyping', 'sendSeen']);
    const [started, stopped] = waha.presence;
    expect(stopped!.at - started!.at).toBeGreaterThanOrEqual(15);
    expect(stopped!.at).toBeLessThanOrEqual(waha.sends[0]!.at);
  });
});

describe('webhooks', () => {
  it('signs each event with HMAC-SHA512 of its exact bytes, with WAHA headers', async () => {
    const { waha, receiver } = await start();
    await call(waha, 'POST', '/api/sessions', {
      json: sessionRequest('hp1', receiver.url, KEY, {
        customHeaders: [{ name: 'X-Sebar-Device', value: 'hp1' }],
      }),
    });
    await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
    waha.pair('hp1', PHONE);
    await waha.settled();
    expect(receiver.received.length).toBe(3);
    for (const hook of receiver.received) {
      const expected = createHmac('sha512', KEY).update(hook.raw).digest('hex');
      expect(hook.headers['x-webhook-hmac']).toBe(expected);
      expect(hook.headers['x-webhook-hmac-algorithm']).toBe('sha512');
      expect(hook.headers['x-webhook-request-id']).toMatch(/^[0-9A-Z]{26}$/);
      expect(Math.abs(Number(hook.headers['x-webhook-timestamp']) - Date.now())).toBeLessThan(5000);
      expect(hook.headers['x-sebar-device']).toBe('hp1');
      expect(hook.headers['content-type']).toBe('application/json');
      // The same JSON written with other spacing signs differently: the signature is of the bytes.
      const respaced = JSON.stringify(hook.json, null, 1);
      expect(createHmac('sha512', KEY).update(respaced).digest('hex')).not.toBe(expected);
      expect(Object.keys(hook.json)).toEqual([
        'id',
        'timestamp',
        'event',
        'session',
        'me',
        'payload',
        'engine',
        'environment',
      ]);
      expect(hook.json.id).toMatch(/^evt_[0-9a-z]{26}$/);
      expect(hook.json.environment).toMatchObject({ engine: 'GOWS', tier: 'PLUS' });
    }
  });

  it('posts only the events a webhook takes, `*` for all; no hmac key, no signature', async () => {
    const { waha, receiver } = await start();
    const all = await startReceiver();
    try {
      await call(waha, 'POST', '/api/sessions', {
        json: {
          name: 'hp1',
          config: {
            metadata: { 'sebar.device': '7' },
            webhooks: [
              { url: receiver.url, events: ['message.ack'], hmac: { key: KEY } },
              { url: all.url, events: ['*'] },
            ],
          },
        },
      });
      await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
      waha.pair('hp1', PHONE);
      await sendText(waha, '6281234567890@c.us');
      await waha.settled();
      expect(new Set(receiver.received.map((h) => h.json.event))).toEqual(new Set(['message.ack']));
      expect(new Set(all.received.map((h) => h.json.event))).toEqual(
        new Set(['session.status', 'message.any', 'message.ack']),
      );
      expect(all.received[0]?.headers['x-webhook-hmac']).toBeUndefined();
      expect(all.received[0]?.json.metadata).toEqual({ 'sebar.device': '7' });
    } finally {
      await all.close();
    }
  });

  it('retries a failing receiver with the same bytes and event id, up to `attempts`', async () => {
    // Sessions stay STARTING: one event, STARTING, which the receiver fails twice.
    const { waha, receiver } = await start({ startingMs: 60_000 }, (n) => (n <= 2 ? 500 : 200));
    await call(waha, 'POST', '/api/sessions', { json: sessionRequest('hp1', receiver.url, KEY) });
    await waha.settled();
    expect(waha.webhooks.map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(new Set(waha.webhooks.map((d) => d.body)).size).toBe(1);
    expect(new Set(waha.webhooks.map((d) => d.headers['x-webhook-request-id'])).size).toBe(3);
    expect(statusesOf(receiver)).toEqual(['STARTING']);
  });

  it('gives up after `attempts`, and spaces retries by the policy', async () => {
    const { waha, receiver } = await start({}, () => 503);
    await call(waha, 'POST', '/api/sessions', {
      json: sessionRequest('hp1', receiver.url, KEY, {
        events: ['session.status'],
        retries: { delaySeconds: 0.01, attempts: 2 },
      }),
    });
    await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
    await waha.settled();
    expect(waha.webhooks.map((d) => d.attempt).sort()).toEqual([1, 1, 2, 2]);
    const hook = (policy: 'linear' | 'exponential' | 'constant') => ({
      url: 'http://x',
      events: ['message'] as ['message'],
      retries: { delaySeconds: 2, policy },
    });
    expect([1, 2, 3].map((n) => retryDelayMs(hook('constant'), n))).toEqual([2000, 2000, 2000]);
    expect([1, 2, 3].map((n) => retryDelayMs(hook('linear'), n))).toEqual([2000, 4000, 6000]);
    expect([1, 2, 3].map((n) => retryDelayMs(hook('exponential'), n))).toEqual([2000, 4000, 8000]);
  });
});

/** One send to 6281234567890 scripted with `outcome`, and its acks. */
async function acksFor(outcome: string) {
  const { waha, receiver } = await startPaired({ outcomes: { '6281234567890': outcome } });
  const answer = await sendText(waha, '6281234567890@c.us');
  await waha.settled();
  return { answer, acks: acksOf(receiver, answer.body.id), receiver, waha };
}

describe('scripted acks', () => {
  it('read, delivered, sent and played post their acks in order', async () => {
    const read = await acksFor('read');
    expect(read.acks).toEqual([
      [1, 'SERVER'],
      [2, 'DEVICE'],
      [3, 'READ'],
    ]);
    expect(read.receiver.events('message.ack')[0].payload).toMatchObject({
      id: read.answer.body.id,
      from: '6281234567890@c.us',
      fromMe: true,
      participant: null,
    });
    await read.waha.close();
    expect((await acksFor('delivered')).acks.map(([ack]) => ack)).toEqual([1, 2]);
    expect((await acksFor('sent')).acks.map(([ack]) => ack)).toEqual([1]);
    expect((await acksFor('played')).acks).toEqual([
      [1, 'SERVER'],
      [2, 'DEVICE'],
      [3, 'READ'],
      [4, 'PLAYED'],
    ]);
  });

  it('error and not_on_whatsapp are accepted, then ack -1 ERROR', async () => {
    const error = await acksFor('error');
    expect(error.answer.status).toBe(201);
    expect(error.acks).toEqual([[-1, 'ERROR']]);
    const absent = await acksFor('not_on_whatsapp');
    expect(absent.answer.status).toBe(201);
    expect(absent.acks).toEqual([[-1, 'ERROR']]);
  });

  it('duplicate posts each ack twice; out_of_order posts READ before DEVICE, no SERVER', async () => {
    const duplicate = await acksFor('duplicate');
    expect(duplicate.acks.map(([ack]) => ack).sort()).toEqual([1, 1, 2, 2, 3, 3]);
    expect(new Set(duplicate.receiver.events('message.ack').map((h) => h.id)).size).toBe(6);
    expect((await acksFor('out_of_order')).acks.map(([ack]) => ack)).toEqual([3, 2]);
  });
});

describe("WhatsApp's refusals and lost answers", () => {
  it('reject:463 and reject:475 answer 500 with the WhatsApp error; the session stays WORKING', async () => {
    const { waha } = await startPaired({
      outcomes: { '6281234560003': 'reject:463', '6281234560004': 'reject:475x2' },
    });
    const timelock = await sendText(waha, '6281234560003@c.us');
    expect(timelock.status).toBe(500);
    expect(timelock.body).toMatchObject({
      statusCode: 500,
      exception: {
        message: '2 UNKNOWN: server returned error 463',
        code: 2,
        details: 'server returned error 463',
      },
      request: { path: '/api/sendText', method: 'POST' },
    });
    const codes = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await sendText(waha, '6281234560004@c.us');
      codes.push(answer.status === 201 ? 201 : answer.body.exception.details);
    }
    expect(codes).toEqual(['server returned error 475', 'server returned error 475', 201]);
    expect(waha.sends).toHaveLength(1);
    expect(waha.session('hp1')?.status).toBe('WORKING');
  });

  it('a restricted session answers 463 after its allowed sends, until lifted', async () => {
    const { waha } = await startPaired();
    waha.restrict('hp1', 463, 2);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await sendText(waha, `628123456700${i}`)).status);
    expect(statuses).toEqual([201, 201, 500]);
    const lifted = await call(waha, 'DELETE', '/_local/sessions/hp1/restrict');
    expect(lifted.body).toEqual({ restriction: null });
    expect((await sendText(waha, '6281234567009')).status).toBe(201);
    const capped = await call(waha, 'POST', '/_local/sessions/hp1/restrict', {
      json: { code: 475 },
    });
    expect(capped.body).toEqual({ restriction: { code: 475, afterSends: 0 } });
    const refused = await sendText(waha, '6281234567010');
    expect(refused.body.exception.details).toBe('server returned error 475');
  });

  it('timeout holds the answer; lost_answer drops the connection, the send and acks happen', async () => {
    const { waha, receiver } = await startPaired({
      outcomes: { '6281234560006': 'timeout:300', '6281234560007': 'lost_answer' },
    });
    const began = Date.now();
    expect((await sendText(waha, '6281234560006')).status).toBe(201);
    expect(Date.now() - began).toBeGreaterThanOrEqual(280);
    await expect(sendText(waha, '6281234560007')).rejects.toThrow();
    expect(waha.sentTo('6281234560007')).toHaveLength(1);
    await waha.settled();
    expect(acksOf(receiver, waha.sentTo('6281234560007')[0]!.id)).toHaveLength(3);
  });

  it('the CLI suffix convention is available to tests', async () => {
    const { waha, receiver } = await startPaired({ outcomes: outcomeBySuffix });
    const check = await call(
      waha,
      'GET',
      '/api/contacts/check-exists?phone=6289900000001&session=hp1',
    );
    expect(check.body.numberExists).toBe(false);
    expect((await sendText(waha, '6289900000003')).body.exception.details).toContain('463');
    const answer = await sendText(waha, '6289900000012');
    await waha.settled();
    expect(acksOf(receiver, answer.body.id).map(([ack]) => ack)).toEqual([1, 2, 3, 4]);
  });
});

describe('incoming messages and device drops', () => {
  it('posts a signed `message` event when a number writes to the session', async () => {
    const { waha, receiver } = await startPaired();
    const sent = waha.incoming('hp1', '6281234567890', 'STOP');
    const byRoute = await call(waha, 'POST', '/_local/sessions/hp1/incoming', {
      json: { from: '6281234567891@c.us', body: 'BERHENTI' },
      key: null,
    });
    expect(byRoute.body.id).toMatch(/^false_6281234567891@c\.us_[0-9A-F]{20}$/);
    await waha.settled();
    // Events are posted concurrently, as WAHA's are: they may arrive in either order.
    const messages = receiver
      .events('message')
      .sort((a, b) => a.payload.body.localeCompare(b.payload.body))
      .reverse();
    expect(messages.map((m) => m.payload.body)).toEqual(['STOP', 'BERHENTI']);
    expect(messages[0]).toMatchObject({
      event: 'message',
      session: 'hp1',
      me: { id: '6281100000001@c.us' },
      payload: {
        id: sent.id,
        from: '6281234567890@c.us',
        fromMe: false,
        to: '6281100000001@c.us',
        body: 'STOP',
        hasMedia: false,
        timestamp: expect.any(Number),
      },
    });
    expect(String(messages[0].payload.timestamp)).toMatch(/^\d{10}$/);
    expect(waha.received.map((m) => m.body)).toEqual(['STOP', 'BERHENTI']);
  });

  it('names a writer by a hidden id, and tells its number when it knows it', async () => {
    const { waha, receiver } = await startPaired();
    waha.incoming('hp1', '6281234567890', 'STOP', 'lid');
    const hidden = await call(waha, 'POST', '/_local/sessions/hp1/incoming', {
      json: { from: '6281234567891', body: 'BERHENTI', as: 'hidden' },
      key: null,
    });
    expect(hidden.body.id).toMatch(/^false_1\d{14}@lid_[0-9A-F]{20}$/);
    await waha.settled();
    const from = (body: string) =>
      receiver.events('message').find((m) => m.payload.body === body).payload.from as string;
    expect(from('STOP')).toMatch(/^1\d{14}@lid$/);
    expect(from('BERHENTI')).toMatch(/^1\d{14}@lid$/);
    expect(from('STOP')).not.toBe(from('BERHENTI'));
    const known = await call(waha, 'GET', `/api/hp1/lids/${encodeURIComponent(from('STOP'))}`);
    expect(known.body).toEqual({ lid: from('STOP'), pn: '6281234567890@c.us' });
    // Without its '@lid' too, as WAHA takes it.
    const bare = from('BERHENTI').replace('@lid', '');
    expect((await call(waha, 'GET', `/api/hp1/lids/${bare}`)).body).toEqual({
      lid: from('BERHENTI'),
      pn: null,
    });
    expect((await call(waha, 'GET', `/api/hp1/lids/${bare}`, { key: null })).status).toBe(401);
    const bad = await call(waha, 'POST', '/_local/sessions/hp1/incoming', {
      json: { from: '6281234567891', body: 'x', as: 'anon' },
      key: null,
    });
    expect(bad.status).toBe(400);
  });

  it('a dropped device turns FAILED: sends answer 422, a restart asks for a new QR', async () => {
    const { waha, receiver } = await startPaired();
    const dropped = await call(waha, 'POST', '/_local/sessions/hp1/drop', { key: null });
    expect(dropped.body).toMatchObject({ status: 'FAILED', me: null });
    const refused = await sendText(waha, '6281234567890');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ status: 'FAILED', expected: ['WORKING'] });
    expect(
      (
        await call(waha, 'POST', '/_local/sessions/hp1/incoming', {
          json: { from: '62811', body: 'x' },
        })
      ).status,
    ).toBe(409);
    await call(waha, 'POST', '/api/sessions/hp1/restart');
    await until(() => waha.session('hp1')?.status === 'SCAN_QR_CODE');
    await waha.settled();
    const history = waha.session('hp1')?.statuses.map((s) => s.status);
    expect(history?.slice(-4)).toEqual(['FAILED', 'STOPPED', 'STARTING', 'SCAN_QR_CODE']);
    const failed = receiver.events('session.status').find((h) => h.payload.status === 'FAILED');
    expect(failed.me).toBeNull();
  });
});

describe('records for people', () => {
  it('lists sends and typing under /_local, by session and chat', async () => {
    const { waha } = await startPaired();
    await call(waha, 'POST', '/api/startTyping', {
      json: { session: 'hp1', chatId: '6281234567890@c.us' },
    });
    await sendText(waha, '6281234567890@c.us', 'satu');
    await sendText(waha, '6281234567891@c.us', 'dua');
    const one = await call(waha, 'GET', '/_local/sends?session=hp1&chatId=6281234567890', {
      key: null,
    });
    expect(one.body.map((s: { text: string }) => s.text)).toEqual(['satu']);
    const typing = await call(waha, 'GET', '/_local/presence?chatId=6281234567890@c.us');
    expect(typing.body).toEqual([
      expect.objectContaining({ action: 'startTyping', session: 'hp1' }),
    ]);
    const hooks = await call(waha, 'GET', '/_local/webhooks');
    expect(hooks.body.length).toBeGreaterThan(0);
  });
});
