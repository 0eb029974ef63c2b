// What both doubles' webhook senders share: posts made after a delay and tried again, as their
// services do, while the receiver fails or answers non-2xx; every attempt kept for tests, and
// `settled()` telling a test when nothing is left to post.

/** One attempt's record: the receiver's HTTP status, or 'error' when it could not be reached. */
export interface PostAttempt {
  status: number | 'error';
}

/** One post to make, and how its service retries it. */
export interface RetriedPost<A extends PostAttempt> {
  /** Makes try `attempt` (from 1) and answers its record. */
  post(attempt: number): Promise<A>;
  /** Tries at most, the first included. */
  maxAttempts: number;
  /** The wait before try `attempt + 1` after try `attempt` failed. */
  retryDelayMs(attempt: number): number;
}

export class RetriedPosts<A extends PostAttempt> {
  /** Every attempt, in the order they ended. */
  readonly attempts: A[] = [];
  private pending = 0;
  private waiters: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Makes `posts` after `delayMs`, each tried until taken or its attempts run out. */
  schedule(delayMs: number, posts: RetriedPost<A>[]): void {
    if (posts.length === 0 || this.closed) return;
    this.pending += posts.length;
    this.later(delayMs, async () => {
      await Promise.all(posts.map((post) => this.attempt(post, 1)));
    });
  }

  /** Resolves once every scheduled post was taken or given up. */
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

  private async attempt(post: RetriedPost<A>, attempt: number): Promise<void> {
    if (this.closed) return;
    const record = await post.post(attempt);
    if (this.closed) return;
    this.attempts.push(record);
    const taken = typeof record.status === 'number' && record.status < 300;
    if (taken || attempt >= post.maxAttempts) {
      this.pending = Math.max(0, this.pending - 1);
      if (this.pending === 0) this.wake();
      return;
    }
    this.later(post.retryDelayMs(attempt), () => this.attempt(post, attempt + 1));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
