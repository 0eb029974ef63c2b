/* eslint-disable @typescript-eslint/no-explicit-any -- tests read answers loosely: they assert on them */
// Test helpers: a webhook receiver at Sebar's path for Meta, and a Graph API client for the double.
import { startWebhookReceiver, type WebhookReceiver } from '#local-apis/shared/test-receiver.ts';
import type { LocalCloudApi } from './server.ts';

export interface Receiver extends WebhookReceiver {
  /** The statuses of the received webhooks, in arrival order. */
  statuses(): any[];
}

/** A receiver at Sebar's webhook path for Meta. */
export async function startReceiver(
  options: { answer?: (count: number) => number; verifyToken?: string } = {},
): Promise<Receiver> {
  const receiver = await startWebhookReceiver({ ...options, path: '/webhooks/whatsapp' });
  return {
    ...receiver,
    statuses: () =>
      receiver.received.map((hook) => hook.json.entry[0].changes[0].value.statuses[0]),
  };
}

export interface GraphAnswer {
  status: number;
  headers: Headers;
  /** The JSON answer; the text as it came when it is not JSON (a proxy's page). */
  body: any;
}

/** A Graph API call with the double's token unless `token` says otherwise. */
export async function graph(
  api: LocalCloudApi,
  method: 'GET' | 'POST',
  path: string,
  options: { json?: unknown; form?: FormData; token?: string | null; signal?: AbortSignal } = {},
): Promise<GraphAnswer> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? api.options.accessToken : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | FormData | undefined = options.form;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const answer = await fetch(`${api.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    headers: answer.headers,
    body:
      text && answer.headers.get('content-type')?.includes('json')
        ? JSON.parse(text)
        : text || undefined,
  };
}

/** A valid send of the text-only utility template to `to`. */
export function billSend(to: string, extra: Record<string, unknown> = {}) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: 'pengingat_tagihan',
      language: { code: 'id' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Rp150.000' }] }],
    },
    ...extra,
  };
}

/** Sends `body` to the double's phone number. */
export function send(api: LocalCloudApi, body: unknown, options: { signal?: AbortSignal } = {}) {
  return graph(api, 'POST', `/v23.0/${api.options.phoneNumberId}/messages`, {
    json: body,
    ...options,
  });
}

/** The `cloud_api` settings that point Sebar at `api`, as its admin would enter them. */
export function cloudApiSettingsOf(api: Pick<LocalCloudApi, 'url' | 'options'>) {
  const o = api.options;
  return {
    graph_url: api.url,
    phone_number_id: o.phoneNumberId,
    business_account_id: o.businessAccountId,
    access_token: o.accessToken,
    app_secret: o.appSecret,
    verify_token: o.verifyToken,
  };
}
