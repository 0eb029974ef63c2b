// Posts events the way WAHA Plus does: one POST per event to each of the session's webhooks that
// subscribed to it, JSON signed with `X-Webhook-Hmac` (hex HMAC-SHA512 of the exact bytes with
// `hmac.key`) and `X-Webhook-Hmac-Algorithm: sha512`, with `X-Webhook-Request-Id` (a new ULID each
// attempt; the body's `id` is the event's and stays) and `X-Webhook-Timestamp` (Unix
// milliseconds), the custom headers, and retries by `retries` (docs: "Webhooks"; the headers as
// WAHA receivers check them). Every attempt is logged.
import { createHmac } from 'node:crypto';
import { RetriedPosts } from '#local-apis/shared/retried-posts.ts';
import { ulid } from './ids.ts';
import { ENVIRONMENT, type WebhookConfig } from './protocol.ts';

/**
 * WAHA's documented default: 15 attempts, 2 seconds apart. `attempts` counts every try, the
 * first one included, as WAHA's sender hands it to its HTTP client (`maxAttempts`).
 */
export const DEFAULT_RETRIES = { attempts: 15, delaySeconds: 2, policy: 'constant' } as const;

/** The body of every webhook: `{id, timestamp, event, session, metadata?, me, payload, …}`. */
export interface WebhookEnvelope {
  id: string;
  timestamp: number;
  event: string;
  session: string;
  metadata?: Record<string, string>;
  me: { id: string; pushName: string } | null;
  payload: unknown;
  engine: string;
  environment: typeof ENVIRONMENT;
}

/** One attempt to post one event to one webhook. */
export interface WebhookDelivery {
  session: string;
  event: string;
  url: string;
  /** The exact JSON posted, the same bytes on every attempt. */
  body: string;
  envelope: WebhookEnvelope;
  headers: Record<string, string>;
  attempt: number;
  /** The receiver's HTTP status, or 'error' when it could not be reached. */
  status: number | 'error';
  error?: string;
  at: number;
}

/** The hex HMAC-SHA512 of the bytes with the key, as `X-Webhook-Hmac` carries it. */
export function signBody(body: string | Buffer, key: string): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

/** Whether a webhook takes an event: named in `events`, or `*`. */
export function subscribes(webhook: WebhookConfig, event: string): boolean {
  return webhook.events.includes('*') || (webhook.events as string[]).includes(event);
}

/** The wait before try `attempt + 1` after try `attempt` failed, by the webhook's policy. */
export function retryDelayMs(webhook: WebhookConfig, attempt: number): number {
  const retries = { ...DEFAULT_RETRIES, ...stripNullish(webhook.retries ?? {}) };
  const base = retries.delaySeconds * 1000;
  if (retries.policy === 'linear') return base * attempt;
  if (retries.policy === 'exponential') return base * 2 ** (attempt - 1);
  return base;
}

function maxAttempts(webhook: WebhookConfig): number {
  return Math.max(1, webhook.retries?.attempts ?? DEFAULT_RETRIES.attempts);
}

function stripNullish<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v != null)) as Partial<T>;
}

export class WebhookPoster {
  private readonly posts = new RetriedPosts<WebhookDelivery>();
  /** Every attempt, with the receiver's answer. */
  readonly deliveries = this.posts.attempts;

  constructor(private readonly attemptTimeoutMs: number) {}

  /**
   * Posts an event after `delayMs` to each webhook of `webhooks` that subscribed to it. The
   * envelope is made when the event fires (its id and timestamp are of that moment) and is the
   * same for every webhook and every retry.
   */
  post(
    webhooks: WebhookConfig[],
    event: string,
    makeEnvelope: () => WebhookEnvelope,
    delayMs = 0,
  ): void {
    let fired: { envelope: WebhookEnvelope; body: string } | undefined;
    const message = () => {
      if (!fired) {
        const envelope = makeEnvelope();
        fired = { envelope, body: JSON.stringify(envelope) };
      }
      return fired;
    };
    const targets = webhooks.filter((webhook) => subscribes(webhook, event));
    this.posts.schedule(
      delayMs,
      targets.map((webhook) => ({
        post: (attempt) => this.send(webhook, message(), attempt),
        maxAttempts: maxAttempts(webhook),
        retryDelayMs: (attempt) => retryDelayMs(webhook, attempt),
      })),
    );
  }

  /** Resolves once every scheduled event was taken or given up. */
  settled(): Promise<void> {
    return this.posts.settled();
  }

  /** Cancels what is still scheduled. */
  close(): void {
    this.posts.close();
  }

  private async send(
    webhook: WebhookConfig,
    { envelope, body }: { envelope: WebhookEnvelope; body: string },
    attempt: number,
  ): Promise<WebhookDelivery> {
    const headers = headersFor(webhook, body);
    const base = {
      session: envelope.session,
      event: envelope.event,
      url: webhook.url,
      body,
      envelope,
      headers,
      attempt,
      at: Date.now(),
    };
    try {
      const answer = await fetch(webhook.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.attemptTimeoutMs),
      });
      // The receiver's answer body is read and dropped so the connection can be reused.
      await answer.arrayBuffer().catch(() => undefined);
      return { ...base, status: answer.status };
    } catch (error) {
      return { ...base, status: 'error', error: (error as Error).message };
    }
  }
}

/** The headers of one attempt: WAHA's, the signature when a key is set, then the custom ones. */
function headersFor(webhook: WebhookConfig, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `WAHA/${ENVIRONMENT.version}`,
    'x-webhook-request-id': ulid(),
    'x-webhook-timestamp': String(Date.now()),
  };
  const key = webhook.hmac?.key;
  if (key) {
    headers['x-webhook-hmac'] = signBody(body, key);
    headers['x-webhook-hmac-algorithm'] = 'sha512';
  }
  for (const header of webhook.customHeaders ?? []) headers[header.name] = header.value;
  return headers;
}
