// Posts webhooks the way Meta does: JSON signed with the app secret in X-Hub-Signature-256 over
// the exact bytes sent, retried with a growing delay while the receiver fails or answers non-2xx.
// Every attempt is logged, and `settled()` tells a test when nothing is left to post
// (local-apis/shared/retried-posts.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { RetriedPosts } from '#local-apis/shared/retried-posts.ts';

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
  private readonly posts = new RetriedPosts<WebhookDelivery>();
  /** Every attempt, with the receiver's answer. */
  readonly deliveries = this.posts.attempts;

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Posts `payload` after `delayMs`, retrying until it is taken or the attempts run out. */
  schedule(payload: unknown, delayMs: number): void {
    if (!this.options.url) return;
    const body = JSON.stringify(payload);
    this.posts.schedule(delayMs, [
      {
        post: (attempt) => this.post(body, payload, attempt),
        maxAttempts: this.options.maxAttempts,
        retryDelayMs: (attempt) => this.options.retryMs * 2 ** (attempt - 1),
      },
    ]);
  }

  /** Resolves once every scheduled webhook was taken or given up. */
  settled(): Promise<void> {
    return this.posts.settled();
  }

  /** Cancels what is still scheduled. */
  close(): void {
    this.posts.close();
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
