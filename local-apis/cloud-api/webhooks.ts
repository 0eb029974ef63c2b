// Posts webhooks the way Meta does: JSON signed with the app secret in X-Hub-Signature-256 over
// the exact bytes sent, retried with a growing delay while the receiver fails or answers non-2xx.
// Every attempt is logged, and `settled()` tells a test when nothing is left to post.
import { createHmac, randomBytes } from 'node:crypto';

export interface WebhookSenderOptions {
  /** Where to post; without one nothing is posted or logged. */
  url?: string;
  appSecret: string;
  /** The wait before the first retry; each further retry waits twice as long. */
  retryMs: number;
  maxAttempts: number;
  /** How long one attempt may take before it counts as failed. */
  attemptTimeoutMs: number;
}

/** One attempt to post one webhook. */
export interface WebhookDelivery {
  /** The exact JSON posted. */
  body: string;
  payload: unknown;
  signature: string;
  attempt: number;
  /** The receiver's HTTP status, or 'error' when it could not be reached. */
  status: number | 'error';
  error?: string;
  at: number;
}

/** `sha256=` and the hex HMAC-SHA256 of the bytes with the app secret, as Meta signs. */
export function signBody(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private pending = 0;
  private waiters: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Posts `payload` after `delayMs`, retrying until it is taken or the attempts run out. */
  schedule(payload: unknown, delayMs: number): void {
    if (!this.options.url || this.closed) return;
    const body = JSON.stringify(payload);
    this.pending += 1;
    this.later(delayMs, () => this.attempt(body, payload, 1));
  }

  /** Resolves once every scheduled webhook was taken or given up. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Cancels what is still scheduled. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pending = 0;
    this.wake();
  }

  private later(delayMs: number, run: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(body: string, payload: unknown, attempt: number): Promise<void> {
    if (this.closed) return;
    const delivery = await this.post(body, payload, attempt);
    if (this.closed) return;
    this.deliveries.push(delivery);
    const taken = typeof delivery.status === 'number' && delivery.status < 300;
    if (taken || attempt >= this.options.maxAttempts) {
      this.done();
      return;
    }
    const wait = this.options.retryMs * 2 ** (attempt - 1);
    this.later(wait, () => this.attempt(body, payload, attempt + 1));
  }

  private async post(body: string, payload: unknown, attempt: number): Promise<WebhookDelivery> {
    const signature = signBody(body, this.options.appSecret);
    const base = { body, payload, signature, attempt, at: Date.now() };
    try {
      const answer = await fetch(this.options.url ?? '', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'facebookexternalua',
          'x-hub-signature-256': signature,
        },
        body,
        signal: AbortSignal.timeout(this.options.attemptTimeoutMs),
      });
      // The receiver's answer body is read and dropped so the connection can be reused.
      await answer.arrayBuffer().catch(() => undefined);
      return { ...base, status: answer.status };
    } catch (error) {
      return { ...base, status: 'error', error: (error as Error).message };
    }
  }

  private done(): void {
    this.pending = Math.max(0, this.pending - 1);
    if (this.pending === 0) this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Meta's verification handshake: a GET to the webhook URL with `hub.mode=subscribe`, the verify
 * token and a challenge. True when the receiver answers 200 with the challenge as its body.
 */
export async function verifyWebhook(url: string, verifyToken: string): Promise<boolean> {
  const challenge = String(randomBytes(4).readUInt32BE(0));
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.verify_token', verifyToken);
  target.searchParams.set('hub.challenge', challenge);
  try {
    const answer = await fetch(target, { signal: AbortSignal.timeout(5000) });
    return answer.status === 200 && (await answer.text()).trim() === challenge;
  } catch {
    return false;
  }
}
