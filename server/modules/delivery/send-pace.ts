// One worker's posting pace: each number goes at its send slot, and this worker never posts more
// than the rate in any second, even when timers fire late and several slots have come at once.

export class SendPace {
  /** When this worker's posts of the last second went (epoch ms), the oldest first. */
  private readonly posted: number[] = [];

  /**
   * Resolves when a number whose slot is `sendAt` may be posted at `perSecond`; counts it, and
   * answers the instant it was counted at.
   */
  async when(sendAt: number, perSecond: number): Promise<number> {
    for (;;) {
      const now = Date.now();
      while (this.posted.length > 0 && this.posted[0]! <= now - 1000) this.posted.shift();
      const full = this.posted.length >= perSecond;
      const waitMs = Math.max(sendAt - now, full ? this.posted[0]! + 1000 - now : 0);
      if (waitMs <= 0) {
        this.posted.push(now);
        return now;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
