// Sign-in is slowed per account and address, and stopped per address, before any password hash
// is computed (decision 032).
import { normalizeIP } from '@fastify/rate-limit';

export interface LoginLimits {
  /** How long failures are remembered, and the window of the per-address count. */
  windowMs: number;
  /** Failed sign-ins from one address, on any accounts, in a window; then it waits for the next. */
  maxPerIp: number;
  /** Failed sign-ins of one account from one address before each further attempt waits. */
  maxPerPair: number;
  /** The first wait; each further failure of the pair doubles it, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/** Entries each map may hold; past it the oldest go first (after the expired ones). */
const MAX_LOGIN_ENTRIES = 100_000;

/**
 * Failed sign-ins, checked before any hashing (an IPv6 address counts by its /64, as the rate limit counts it).
 * An account is slowed per address it is tried from: after `maxPerPair` failures from one address, that address waits before each next try of
 * that account, the wait doubling with each failure; the owner signing in from elsewhere is not
 * slowed at all. One address trying many accounts is stopped by `maxPerIp` per window. The admin
 * can lift an account's waits (`lift`), and a successful sign-in ends its pair's.
 */
export class LoginLimiter {
  readonly #pairs = new Map<string, { failures: number; until: number; lastAt: number }>();
  readonly #ips = new Map<string, { count: number; resetAt: number }>();
  readonly #firstDelayMs: number;
  readonly #maxDelayMs: number;
  constructor(private readonly options: LoginLimits) {
    this.#firstDelayMs = options.firstDelayMs ?? 1000;
    this.#maxDelayMs = options.maxDelayMs ?? 15 * 60 * 1000;
  }

  static #pairKey = (ip: string, account: string) => `${account}\u0000${normalizeIP(ip)}`;

  /** Milliseconds to wait, or 0 when an attempt may go ahead. */
  blockedFor(ip: string, account: string, now = Date.now()): number {
    const byIp = this.#ips.get(normalizeIP(ip));
    const ipWait =
      byIp && byIp.resetAt > now && byIp.count >= this.options.maxPerIp ? byIp.resetAt - now : 0;
    const pair = this.#pairs.get(LoginLimiter.#pairKey(ip, account));
    return Math.max(ipWait, pair && pair.until > now ? pair.until - now : 0);
  }

  fail(ip: string, account: string, now = Date.now()): void {
    const key = LoginLimiter.#pairKey(ip, account);
    const pair = this.#pairs.get(key);
    const live = pair && pair.lastAt + this.options.windowMs > now ? pair : undefined;
    const failures = (live?.failures ?? 0) + 1;
    const over = failures - this.options.maxPerPair;
    const until =
      over >= 0
        ? now + Math.min(this.#firstDelayMs * 2 ** Math.min(over, 40), this.#maxDelayMs)
        : 0;
    this.#pairs.delete(key); // re-inserted last: the map stays in order of last use
    this.#pairs.set(key, { failures, until, lastAt: now });
    const address = normalizeIP(ip);
    const byIp = this.#ips.get(address);
    if (byIp && byIp.resetAt > now) byIp.count += 1;
    else this.#ips.set(address, { count: 1, resetAt: now + this.options.windowMs });
    this.#bound(now);
  }

  succeed(ip: string, account: string): void {
    this.#pairs.delete(LoginLimiter.#pairKey(ip, account));
  }

  /** Ends every wait of an account, from any address (the admin's "Buka Blokir Masuk"). */
  lift(account: string): void {
    const prefix = `${account}\u0000`;
    for (const key of this.#pairs.keys()) if (key.startsWith(prefix)) this.#pairs.delete(key);
  }

  /** Entries held (tests prove the memory stays bounded). */
  size(): number {
    return this.#pairs.size + this.#ips.size;
  }

  #bound(now: number) {
    if (this.#pairs.size <= MAX_LOGIN_ENTRIES && this.#ips.size <= MAX_LOGIN_ENTRIES) return;
    const windowMs = this.options.windowMs;
    for (const [key, pair] of this.#pairs) {
      if (Math.max(pair.until, pair.lastAt + windowMs) <= now) this.#pairs.delete(key);
    }
    for (const [key, hit] of this.#ips) if (hit.resetAt <= now) this.#ips.delete(key);
    for (const map of [this.#pairs, this.#ips]) {
      for (const key of map.keys()) {
        if (map.size <= MAX_LOGIN_ENTRIES * 0.9) break; // room for a while before the next sweep
        map.delete(key);
      }
    }
  }
}
