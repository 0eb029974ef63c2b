// For the delivery tests: a Sebar test server pointed at a local Cloud API that posts its
// webhooks back to it, templates synced and enabled, and a funded client.
import { cloudApiSettingsOf } from '#local-apis/cloud-api/test-helpers.ts';
import { expect } from 'vitest';
import { WEBHOOK_PATH } from '#common/delivery.ts';
import { startLocalCloudApi, type LocalCloudApi } from '#local-apis/cloud-api/server.ts';
import type { LocalCloudApiOptions } from '#local-apis/cloud-api/context.ts';
import { statusWebhook, type MessageStatus } from '#local-apis/cloud-api/statuses.ts';
import { signBody } from '#local-apis/cloud-api/webhooks.ts';
import type { Config } from '#server/config.ts';
import { ENGINE_DEFAULTS } from '#server/modules/delivery/engine-options.ts';
import { startServer, type TestServer } from './helpers.ts';
import { readUntil } from './processes.ts';
import { uploadImage } from './routes.ts';

export interface DeliveryFixture {
  server: TestServer;
  whatsapp: LocalCloudApi;
  client: { id: string; token: string };
  /** Creates a template blast as the client; answers the created blast. */
  blast(numbers: string[], body?: Record<string, unknown>): Promise<any>;
  /** The blast as the client reads it. */
  read(id: string): Promise<any>;
  /** Waits until `done` holds for the blast (polled), answering it. */
  until(id: string, done: (blast: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Saves the delivery settings' cloud_api part (merged over the double's). */
  configure(cloud: Record<string, unknown>): Promise<void>;
  /** Allows images and uploads a PNG as the client: its URL, for a header image. */
  image(): Promise<string>;
  /** Posts a signed status webhook, as Meta does (taken: 200); answers its body. */
  postStatus(status: MessageStatus): Promise<string>;
  /** Posts `payload` as a signed webhook, as Meta does (taken: 200); answers its body. */
  postWebhook(payload: unknown): Promise<string>;
  close(): Promise<void>;
}

/** The double's text-only template with one positional parameter (pengingat_tagihan). */
export const TEXT_TEMPLATE = '1029384756000002';

export async function startDeliveryFixture(
  options: {
    whatsapp?: Partial<LocalCloudApiOptions>;
    config?: Partial<Config>;
    cloud?: Record<string, unknown>;
    points?: number;
  } = {},
): Promise<DeliveryFixture> {
  const server = await startServer({
    secretKey: 'delivery-test-key-0123456789',
    ...options.config,
    delivery: {
      ...ENGINE_DEFAULTS,
      recipientGapMs: 0,
      retryBaseMs: 50,
      maxAttempts: 3,
      unansweredMs: 0,
      idleMs: 20,
      ...options.config?.delivery,
    },
  });
  const whatsapp = await startLocalCloudApi({
    webhookUrl: `${server.url}${WEBHOOK_PATH}`,
    recipientGapMs: 0,
    messagesPerSecond: 1000,
    statusDelayMs: 5,
    ...options.whatsapp,
  });
  const admin = server.adminToken;
  const configure = async (cloud: Record<string, unknown>) => {
    const answer = await server.api('PUT', '/api/admin/delivery', {
      token: admin,
      body: {
        mode: 'cloud_api',
        cloud_api: {
          ...cloudApiSettingsOf(whatsapp),
          messages_per_second: 1000,
          ...cloud,
        },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  await configure(options.cloud ?? {});
  const synced = await server.api('POST', '/api/admin/delivery/templates/sync', { token: admin });
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  for (const template of synced.body as { id: string; status: string }[]) {
    if (template.status !== 'APPROVED') continue;
    await server.api('PUT', `/api/admin/delivery/templates/${template.id}`, {
      token: admin,
      body: { enabled: true },
    });
  }
  const created = await server.createClient();
  const funded = await server.api('PUT', `/api/admin/users/${created.user.id}`, {
    token: admin,
    body: {
      username: created.user.username,
      email: created.user.email,
      points: options.points ?? 10_000,
      is_active: true,
    },
  });
  expect(funded.status).toBe(200);
  const client = { id: created.user.id, token: created.token };

  const read = async (id: string) =>
    (await server.api('GET', `/api/client/blast-requests/${id}`, { token: client.token })).body;
  const postWebhook = async (payload: unknown) => {
    const body = JSON.stringify(payload);
    const posted = await server.api('POST', WEBHOOK_PATH, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signBody(body, whatsapp.options.appSecret),
      },
    });
    expect(posted.status).toBe(200);
    return body;
  };
  return {
    server,
    whatsapp,
    client,
    configure,
    read,
    image: () => uploadImage(server, client.token),
    async blast(numbers, body = {}) {
      const answer = await server.api('POST', '/api/client/blast-requests', {
        token: client.token,
        body: {
          target_numbers: numbers,
          template_id: TEXT_TEMPLATE,
          parameters: ['Rp150.000'],
          ...body,
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    },
    postStatus: (status) => postWebhook(statusWebhook(whatsapp.options, status)),
    postWebhook,
    until(id, done, timeoutMs = 20_000) {
      return readUntil(() => read(id), done, timeoutMs, `blast ${id} done`);
    },
    async close() {
      await server.close();
      await whatsapp.close();
    },
  };
}

/** Sebar's form of an Indonesian mobile number ending in `suffix` (four digits). */
export const numberEnding = (prefix: number, suffix: string) =>
  `62812${String(prefix).padStart(4, '0')}${suffix}`;
