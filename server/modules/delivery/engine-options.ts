// The delivery engine's timings and limits: its defaults, which the configuration (config.ts)
// overrides from the environment and tests shorten.

export interface Retrying {
  /** The wait before the first retry; each further retry waits twice as long. */
  retryBaseMs: number;
  maxAttempts: number;
  /** How long a restricted sender (368, 131048) waits before the engine tries again by itself. */
  pauseMs: number;
}

export interface EngineOptions extends Retrying {
  /** Meta's pair rate: the least time between two sends to one recipient. */
  recipientGapMs: number;
  /**
   * A number sent with no answer and no webhook for this long goes back to the queue (at least
   * the send timeout plus a margin, so no worker is still waiting for its answer).
   */
  unansweredMs: number;
  /** How often an idle worker looks for work. */
  idleMs: number;
  /** How long one second of the gateway's human pacing lasts (1000; tests shorten it). */
  gatewaySecondMs: number;
}

export const ENGINE_DEFAULTS: EngineOptions = {
  recipientGapMs: 6000,
  unansweredMs: 10 * 60 * 1000,
  idleMs: 200,
  gatewaySecondMs: 1000,
  retryBaseMs: 2000,
  maxAttempts: 8,
  pauseMs: 15 * 60 * 1000,
};
