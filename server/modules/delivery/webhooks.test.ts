// The WhatsApp webhook under attack and in use: the handshake answers only the saved verify
// token; a delivery is kept only when signed over its raw bytes with the app secret, once.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import { billSend, send } from '#local-apis/cloud-api/test-helpers.ts';
import { startServer, type TestServer } from '#server/test/helpers.ts';
import { expectCleanError, expectUnchanged } from '#server/test/spec.ts';

let server: TestServer;
let meta: LocalCloudApi;
const PATH = '/api/webhooks/whatsapp';

beforeAll(async () => {
  // No worker: these tests are about the intake; engine.test.ts applies what is kept.
  server = await startServer({ deliveryWorker: false });
  meta = await startLocalCloudApi({
    webhookUrl: `${server.url}${PATH}`,
    recipientGapMs: 0,
    statusDelayMs: 1,
  });
});
afterAll(async () => {
  await meta?.close();
  await server?.close();
});

// The local Cloud API's defaults, entered in Sebar's settings below.
const accessToken = 'local-access-token';
const appSecret = 'local-app-secret';
const verifyToken = 'local-verify-token';
const phoneNumberId = '100200300400500';
const businessAccountId = '900800700600500';

const sign = (body: string, secret = appSecret) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** A status delivery as Meta posts it, spaced as Meta's own JSON is (not as JSON.stringify). */
function statusBody(wamid: string, status: string) {
  return `{"object": "whatsapp_business_account", "entry": [{"id": "${businessAccountId}", "changes": [{"field": "messages", "value": {"messaging_product": "whatsapp", "metadata": {"display_phone_number": "6281100000000", "phone_number_id": "${phoneNumberId}"}, "statuses": [{"id": "${wamid}", "status": "${status}", "timestamp": "1764300000", "recipient_id": "6281234567890"}]}}]}]}`;
}

const post = (body: string, signature?: string, headers: Record<string, string> = {}) =>
  server.api('POST', PATH, {
    raw: body,
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
      ...headers,
    },
  });
const kept = () => server.database.db.selectFrom('webhook_events').selectAll().execute();

/** Sebar's Cloud API settings for the local Cloud API. */
const cloudApi = () => ({
  graph_url: meta.url,
  phone_number_id: phoneNumberId,
  business_account_id: businessAccountId,
  access_token: accessToken,
  app_secret: appSecret,
  verify_token: verifyToken,
});

/** Saves `secret` as the app secret, and the other settings as cloudApi() has them. */
async function saveAppSecret(secret: string) {
  const saved = await server.api('PUT', '/api/admin/delivery', {
    token: server.adminToken,
    body: { mode: 'cloud_api', cloud_api: { ...cloudApi(), app_secret: secret } },
  });
  expect(saved.status).toBe(200);
}

describe('the WhatsApp webhook', () => {
  it('refuses everything while no Cloud API settings are saved', async () => {
    const body = statusBody('wamid.0', 'sent');
    await expectUnchanged(server.database.db, async () => {
      expectCleanError(await post(body, sign(body)), 401);
      const handshake = await server.api(
        'GET',
        `${PATH}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`,
      );
      expectCleanError(handshake, 403);
    });
  });

  it('answers the handshake with the challenge only for the saved verify token', async () => {
    const saved = await server.api('PUT', '/api/admin/delivery', {
      token: server.adminToken,
      body: { mode: 'cloud_api', cloud_api: cloudApi() },
    });
    expect(saved.status).toBe(200);
    const right = await server.api(
      'GET',
      `${PATH}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`,
    );
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toContain('text/plain');
    expect(String(right.body)).toBe('1158201444');
    for (const query of [
      `hub.mode=subscribe&hub.verify_token=salah&hub.challenge=1`,
      `hub.mode=unsubscribe&hub.verify_token=${verifyToken}&hub.challenge=1`,
      `hub.mode=subscribe&hub.challenge=1`,
    ]) {
      expectCleanError(await server.api('GET', `${PATH}?${query}`), 403);
    }
    // The local Cloud API's own handshake, as Meta makes it when the URL is entered.
    expect(await meta.verifyWebhook()).toBe(true);
  });

  it('refuses a missing, wrong or re-serialised signature with 401, keeping nothing', async () => {
    const body = statusBody('wamid.1', 'delivered');
    const reserialised = JSON.stringify(JSON.parse(body));
    await expectUnchanged(server.database.db, async () => {
      for (const signature of [
        undefined,
        'sha256=',
        sign(body, 'rahasia-lain'),
        sign(reserialised),
        sign(body).replace('sha256=', 'sha1='),
        `${sign(body)}00`,
      ]) {
        const answer = await post(body, signature);
        expectCleanError(answer, 401);
        expect(answer.body.detail).toBe('Tanda tangan webhook tidak valid');
      }
    });
  });

  it('refuses a delivery without a signature before reading its body', async () => {
    // Headers for a 2 MB body, of which only the first kilobyte is sent: the answer comes anyway.
    for (const [path, headers] of [
      [PATH, {}],
      [PATH, { 'x-hub-signature-256': 'sha256=bukan-hex' }],
      ['/api/webhooks/waha', { 'x-webhook-hmac': 'pendek' }],
    ] as const) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${server.url}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(2 * 1024 * 1024),
            ...headers,
          },
        });
        request.on('response', (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => {
            resolve({ status: response.statusCode!, body });
            request.destroy();
          });
        });
        request.on('error', reject);
        request.write('{"object":"whatsapp_business_account",' + ' '.repeat(1024));
      });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).detail).toBe('Tanda tangan webhook tidak valid');
    }
  });

  it('keeps a signed delivery before answering 200, once however often it comes', async () => {
    const body = statusBody('wamid.2', 'read');
    const answers = await Promise.all([1, 2, 3].map(() => post(body, sign(body))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const rows = (await kept()).filter((row) => row.body === body);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.processed_at).toBeNull();
  });

  it("keeps a signed delivery as large as Meta's 3 MB, and refuses a larger one", async () => {
    /** One delivery of `count` statuses (about 117 bytes each), as Meta batches them. */
    const batch = (count: number) => {
      const statuses = Array.from(
        { length: count },
        (_, i) =>
          `{"id": "wamid.large-${count}-${i}", "status": "delivered", "timestamp": "1764300000", "recipient_id": "6281234567890"}`,
      );
      return statusBody('wamid.large', 'sent').replace(
        /"statuses": \[.*\]\}\}\]\}\]\}$/,
        `"statuses": [${statuses.join(', ')}]}}]}]}`,
      );
    };
    const large = batch(20_000);
    expect(large.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(large.length).toBeLessThan(3 * 1024 * 1024);
    const answer = await post(large, sign(large));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await kept()).filter((row) => row.body === large)).toHaveLength(1);

    const over = batch(30_000);
    expect(over.length).toBeGreaterThan(3 * 1024 * 1024);
    const refused = await post(over, sign(over));
    expect(refused.status).toBe(413);
    expect((await kept()).filter((row) => row.body === over)).toHaveLength(0);
  });

  it('keeps every one of a burst of deliveries, each answered once it is kept', async () => {
    const before = (await kept()).length;
    const bodies = Array.from({ length: 60 }, (_, i) => statusBody(`wamid.burst-${i}`, 'sent'));
    const answers = await Promise.all(bodies.map((body) => post(body, sign(body))));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    const rows = await kept();
    expect(rows.length).toBe(before + 60);
    for (const body of bodies) expect(rows.filter((row) => row.body === body)).toHaveLength(1);
  });

  it('checks each of a burst on its own, against the app secret saved when it arrives', async () => {
    // Deliveries that arrive together share one read of the settings (decision 229).
    const before = (await kept()).length;
    const bodies = Array.from({ length: 20 }, (_, i) => statusBody(`wamid.mixed-${i}`, 'sent'));
    const forged = (i: number) => i % 2 === 1;
    const answers = await Promise.all(
      bodies.map((body, i) => post(body, sign(body, forged(i) ? 'rahasia-lain' : appSecret))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      bodies.map((_, i) => (forged(i) ? 401 : 200)),
    );
    const rows = await kept();
    expect(rows.length).toBe(before + 10);
    for (const [i, body] of bodies.entries())
      expect(rows.filter((row) => row.body === body)).toHaveLength(forged(i) ? 0 : 1);

    // A new app secret counts from the next delivery on: the old one signs nothing any more.
    await saveAppSecret('rahasia-baru');
    const body = statusBody('wamid.after-change', 'sent');
    expectCleanError(await post(body, sign(body)), 401);
    expect((await post(body, sign(body, 'rahasia-baru'))).status).toBe(200);
    await saveAppSecret(appSecret);
    expectCleanError(await post(body, sign(body, 'rahasia-baru')), 401);
  });

  it('answers 500, not 200, when the deliveries cannot be kept', async () => {
    const body = statusBody('wamid.unkept', 'sent');
    // The table refuses writes for a moment (as a full disk or a lost database would).
    const { db } = server.database;
    await db.schema.alterTable('webhook_events').renameTo('webhook_events_away').execute();
    try {
      const answer = await post(body, sign(body));
      expect(answer.status).toBe(500);
    } finally {
      await db.schema.alterTable('webhook_events_away').renameTo('webhook_events').execute();
    }
    // Meta retries it; the retry is kept.
    expect((await post(body, sign(body))).status).toBe(200);
    expect((await kept()).filter((row) => row.body === body)).toHaveLength(1);
  });

  it('refuses signed bytes that are not JSON, or not sent as JSON', async () => {
    const body = '{"object": ';
    const status = statusBody('wamid.3', 'sent');
    await expectUnchanged(server.database.db, async () => {
      expectCleanError(await post(body, sign(body)), 400);
      const plain = await post(status, sign(status), { 'content-type': 'text/plain' });
      expectCleanError(plain, 415);
    });
  });

  it('takes every status the Cloud API posts, signed by its own implementation', async () => {
    const before = (await kept()).length;
    const sent = await send(meta, billSend('6281234567890'));
    expect(sent.status).toBe(200);
    await meta.settled();
    const statuses = meta.webhooks.filter((hook) => hook.status !== 'error');
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect(new Set(statuses.map((hook) => hook.status))).toEqual(new Set([200]));
    expect((await kept()).length).toBe(before + new Set(statuses.map((h) => h.body)).size);
  });
});
