/* eslint-disable @typescript-eslint/no-explicit-any -- tests read answers loosely: they assert on them */
// Test helpers: a webhook receiver at Sebar's path for WAHA, a client for the double's API, and a
// session created, started and paired in one call.
import { startWebhookReceiver, type WebhookReceiver } from '#local-apis/shared/test-receiver.ts';
import type { LocalWaha } from './server.ts';

export interface Receiver extends WebhookReceiver {
  /** The bodies of the received events named `event`, in arrival order. */
  events(event: string): any[];
}

/** A receiver at Sebar's webhook path for WAHA. */
export async function startReceiver(
  options: { answer?: (count: number) => number } = {},
): Promise<Receiver> {
  const receiver = await startWebhookReceiver({ ...options, path: '/api/webhooks/waha' });
  return {
    ...receiver,
    events: (event) =>
      receiver.received.filter((hook) => hook.json.event === event).map((h) => h.json),
  };
}

export interface WahaAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the bytes when the answer is not JSON (the QR image). */
  body: any;
}

/** A call to the double with its API key unless `key` says otherwise (null: no key). */
export async function call(
  waha: Pick<LocalWaha, 'url' | 'options'>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { json?: unknown; key?: string | null; accept?: string; signal?: AbortSignal } = {},
): Promise<WahaAnswer> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? waha.options.apiKey : options.key;
  if (key !== null) headers['x-api-key'] = key;
  if (options.accept) headers.accept = options.accept;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${waha.url}${path}`, {
    method,
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  const isJson = answer.headers.get('content-type')?.includes('json');
  return {
    status: answer.status,
    headers: answer.headers,
    body: isJson && bytes.length > 0 ? JSON.parse(String(bytes)) : bytes,
  };
}

/** A session request with one webhook to `url`, signed with `key`, as Sebar makes them. */
export function sessionRequest(
  name: string,
  url: string,
  key: string,
  webhook: Record<string, unknown> = {},
) {
  return {
    name,
    start: true,
    config: {
      webhooks: [
        {
          url,
          events: ['message.ack', 'session.status', 'message'],
          hmac: { key },
          retries: { delaySeconds: 0.01, attempts: 3, policy: 'constant' },
          ...webhook,
        },
      ],
    },
  };
}

/** Polls `check` every 10 ms until it holds, or throws after `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Creates and starts a session posting to `url`, waits for its QR and pairs it as `phone`. */
export async function pairedSession(
  waha: LocalWaha,
  name: string,
  url: string,
  key: string,
  phone?: string,
): Promise<void> {
  const created = await call(waha, 'POST', '/api/sessions', {
    json: sessionRequest(name, url, key),
  });
  if (created.status !== 201) throw new Error(`Session not created: ${created.status}`);
  await until(() => waha.session(name)?.status === 'SCAN_QR_CODE');
  waha.pair(name, phone);
}

/** The gateway settings that point Sebar at `waha`, as its admin would enter them. */
export function wahaSettingsOf(waha: Pick<LocalWaha, 'url' | 'options'>) {
  return { provider: 'waha' as const, base_url: waha.url, api_key: waha.options.apiKey };
}
