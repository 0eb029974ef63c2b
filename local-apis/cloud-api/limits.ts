// The three sending limits of the Cloud API: throughput per business phone number (130429), the
// pair rate of one business number to one recipient (131056), and the messaging limit of unique
// recipients in a moving day (131048 here: Meta documents no code of its own for it).
import { graphError, type GraphError } from './errors.ts';

export interface LimitOptions {
  messagesPerSecond: number;
  recipientGapMs: number;
  /** Unique recipients in a moving 24 hours; unlimited when absent. */
  dailyRecipientLimit?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class SendLimits {
  private readonly acceptedAt: number[] = [];
  private readonly lastSendTo = new Map<string, number>();
  private readonly firstSendTo = new Map<string, number>();

  constructor(private readonly options: LimitOptions) {}

  /** The error a send to `to` meets now, or undefined when it may go. Records nothing. */
  check(to: string, now = Date.now()): GraphError | undefined {
    this.forget(now);
    if (this.acceptedAt.length >= this.options.messagesPerSecond) return graphError(130429);
    const last = this.lastSendTo.get(to);
    if (last !== undefined && now - last < this.options.recipientGapMs) return graphError(131056);
    const limit = this.options.dailyRecipientLimit;
    if (limit !== undefined && !this.firstSendTo.has(to) && this.firstSendTo.size >= limit) {
      return graphError(
        131048,
        `Message failed to send because the messaging limit of ${limit} unique recipients in 24 hours was reached.`,
      );
    }
    return undefined;
  }

  /** Counts an accepted send. */
  record(to: string, now = Date.now()): void {
    this.acceptedAt.push(now);
    this.lastSendTo.set(to, now);
    if (!this.firstSendTo.has(to)) this.firstSendTo.set(to, now);
  }

  /** Drops what fell out of the windows: sends older than a second, recipients older than a day. */
  private forget(now: number): void {
    while (this.acceptedAt.length > 0 && now - (this.acceptedAt[0] ?? now) >= 1000) {
      this.acceptedAt.shift();
    }
    // Recipients are kept in the order of their first send, the oldest first: the walk stops at
    // the first one still inside the day. (A walk over all of them made each send cost as much as
    // every recipient so far: with the bench's tens of thousands, a few hundred sends a second.)
    for (const [to, at] of this.firstSendTo) {
      if (now - at < DAY_MS) break;
      this.firstSendTo.delete(to);
    }
  }
}
