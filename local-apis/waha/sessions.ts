// The sessions and their lifecycle, as WAHA's session manager runs them (docs: "Sessions";
// src/api/sessions.controller.ts): STOPPED → STARTING → SCAN_QR_CODE until a phone "scans" (the
// pair control) → WORKING; a paired session starts straight to WORKING; logout forgets the
// pairing; a device unlinked from the phone (the drop control) turns FAILED. Every change is a
// `session.status` event to the webhooks that take it.
import { randomBytes } from 'node:crypto';
import { statusNotExpected, sessionNotFound, type WahaError } from './errors.ts';
import { newEventId } from './ids.ts';
import { ENVIRONMENT, type SessionConfig, type SessionStatus } from './protocol.ts';
import type { WebhookPoster } from './webhooks.ts';

/** The WhatsApp account of a paired session, as `me`. */
export interface MeInfo {
  id: string;
  pushName: string;
}

/** A WhatsApp refusal put on a whole session (463 reachout timelock, 475 message capping). */
export interface Restriction {
  code: number;
  /** How many more sends go through before the refusals start. */
  afterSends: number;
}

export interface LocalSession {
  name: string;
  config: SessionConfig;
  status: SessionStatus;
  /** Every status the session went through, with its time (ms). */
  statuses: { status: SessionStatus; timestamp: number }[];
  /** The paired account (the session's auth): kept by stop and restart, lost by logout and drop. */
  account: MeInfo | null;
  /** The raw value of the current QR, while SCAN_QR_CODE. */
  qr: string | null;
  restriction: Restriction | null;
  timers: Set<NodeJS.Timeout>;
}

interface SessionBookOptions {
  startingMs: number;
  qrRefreshMs: number;
}

/** How many of its last statuses a `session.status` payload lists. */
const STATUS_HISTORY = 10;

export class SessionBook {
  private readonly sessions = new Map<string, LocalSession>();

  constructor(
    private readonly options: SessionBookOptions,
    private readonly webhooks: WebhookPoster,
  ) {}

  get(name: string): LocalSession | undefined {
    return this.sessions.get(name);
  }

  all(): LocalSession[] {
    return [...this.sessions.values()];
  }

  /** `POST /api/sessions`: undefined when the name is taken. */
  create(name: string, config: SessionConfig): LocalSession | undefined {
    if (this.sessions.has(name)) return undefined;
    const session: LocalSession = {
      name,
      config,
      status: 'STOPPED',
      statuses: [{ status: 'STOPPED', timestamp: Date.now() }],
      account: null,
      qr: null,
      restriction: null,
      timers: new Set(),
    };
    this.sessions.set(name, session);
    return session;
  }

  /** Starts a stopped or failed session; a session already running is left as it is. */
  start(session: LocalSession): void {
    if (session.status !== 'STOPPED' && session.status !== 'FAILED') return;
    this.setStatus(session, 'STARTING');
    this.later(session, this.options.startingMs, () => {
      if (session.account) this.setStatus(session, 'WORKING');
      else this.askForScan(session);
    });
  }

  stop(session: LocalSession): void {
    this.clearTimers(session);
    session.qr = null;
    if (session.status !== 'STOPPED') this.setStatus(session, 'STOPPED');
  }

  /** Forgets the pairing; a running session starts again and asks for a QR. */
  logout(session: LocalSession): void {
    const running = session.status !== 'STOPPED';
    this.stop(session);
    session.account = null;
    if (running) this.start(session);
  }

  restart(session: LocalSession): void {
    this.stop(session);
    this.start(session);
  }

  /** `PUT /api/sessions/{name}`: a running session is stopped, given the config, started. */
  update(session: LocalSession, config: SessionConfig): void {
    const running = session.status !== 'STOPPED';
    this.stop(session);
    session.config = config;
    if (running) this.start(session);
  }

  delete(session: LocalSession): void {
    this.stop(session);
    session.account = null;
    this.sessions.delete(session.name);
  }

  /** A phone scans the QR: the session works as that account. */
  pair(session: LocalSession, me: MeInfo): string | undefined {
    if (session.status !== 'SCAN_QR_CODE') {
      return `Session '${session.name}' is ${session.status}, not SCAN_QR_CODE: nothing to scan`;
    }
    this.clearTimers(session);
    session.qr = null;
    session.account = me;
    this.setStatus(session, 'WORKING');
    return undefined;
  }

  /** The phone unlinked the device (or WhatsApp logged it out): FAILED, the pairing gone. */
  drop(session: LocalSession): string | undefined {
    if (session.status === 'STOPPED') return `Session '${session.name}' is STOPPED`;
    this.clearTimers(session);
    session.qr = null;
    session.account = null;
    this.setStatus(session, 'FAILED');
    return undefined;
  }

  /**
   * The session in one of `expected`, as WAHA's session pipes wait for it: a session that is not
   * running is not found (404); one that does not reach the status in `waitMs` answers 422.
   */
  async waitFor(
    name: string,
    expected: SessionStatus[],
    waitMs: number,
  ): Promise<LocalSession | WahaError> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const session = this.sessions.get(name);
      if (!session || session.status === 'STOPPED') return sessionNotFound(name);
      if (expected.includes(session.status)) return session;
      if (Date.now() >= deadline) return statusNotExpected(name, session.status, expected);
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, waitMs)));
    }
  }

  /**
   * Posts `event` with `payload` to the session's webhooks after `delayMs`. The envelope says
   * who the session is as of now (`me`, metadata); its id and timestamp are of when it fires.
   */
  emit(session: LocalSession, event: string, payload: unknown, delayMs = 0): void {
    const me = session.account;
    const metadata = session.config.metadata;
    this.webhooks.post(
      session.config.webhooks ?? [],
      event,
      () => ({
        id: newEventId(),
        timestamp: Date.now(),
        event,
        session: session.name,
        ...(metadata ? { metadata } : {}),
        me,
        payload,
        engine: ENVIRONMENT.engine,
        environment: ENVIRONMENT,
      }),
      delayMs,
    );
  }

  /** Stops every timer (the double closes). */
  close(): void {
    for (const session of this.sessions.values()) this.clearTimers(session);
  }

  private setStatus(session: LocalSession, status: SessionStatus): void {
    session.status = status;
    session.statuses.push({ status, timestamp: Date.now() });
    const statuses = session.statuses.slice(-STATUS_HISTORY);
    this.emit(session, 'session.status', { name: session.name, status, statuses });
  }

  /** A new QR and SCAN_QR_CODE, again every `qrRefreshMs` while nobody scans. */
  private askForScan(session: LocalSession): void {
    session.qr = newQrValue();
    this.setStatus(session, 'SCAN_QR_CODE');
    if (this.options.qrRefreshMs > 0) {
      this.later(session, this.options.qrRefreshMs, () => this.askForScan(session));
    }
  }

  private later(session: LocalSession, ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      session.timers.delete(timer);
      run();
    }, ms);
    session.timers.add(timer);
  }

  private clearTimers(session: LocalSession): void {
    for (const timer of session.timers) clearTimeout(timer);
    session.timers.clear();
  }
}

/** A raw QR value shaped like WhatsApp Web's: `2@` and four base64 parts. */
function newQrValue(): string {
  const part = (bytes: number) => randomBytes(bytes).toString('base64');
  return `2@${part(48)},${part(32)},${part(32)},${part(16)}`;
}
