// Reads the process environment once; everything else takes a Config.
import path from 'node:path';
import type { LoginLimits } from './modules/auth/login-limiter.ts';
import { ENGINE_DEFAULTS, type EngineOptions } from './modules/delivery/engine-options.ts';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; the embedded SQLite file is used when unset. */
  databaseUrl: string | null;
  /** PostgreSQL schema (tests give each file its own). */
  databaseSchema: string | null;
  dataDir: string;
  adminEmail: string | null;
  adminPassword: string | null;
  jwtSecret: string | null;
  /** Seals the delivery secrets at rest; a key kept in the database when unset. */
  secretKey: string | null;
  tokenTtlSeconds: number;
  login: LoginLimits;
  /**
   * Fastify's trustProxy: whether (and which) proxies' X-Forwarded-For names the caller's
   * address, which sign-in throttling and the rate limit key on. false: the connection's address.
   */
  trustProxy: boolean | number | string;
  /** Requests per minute per signed-in user; 0 turns the limit off. */
  userRateLimit: number;
  /** Expensive requests (blast creation, image uploads) in flight per user; 0 turns the bound off. */
  clientInFlight: number;
  clientDir: string;
  /**
   * Where WAHA reaches this server (SEBAR_PUBLIC_URL, e.g. `https://sebar.example.com`): the
   * devices' webhooks point there. Unset: `http://127.0.0.1:<the listening port>`.
   */
  publicUrl: string | null;
  logLevel: string;
  /** Whether this server process runs a delivery worker (off when workers run apart). */
  deliveryWorker: boolean;
  delivery: EngineOptions;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const num = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(value) ? value : fallback;
  };
  return {
    port: num('PORT', 8000),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    databaseSchema: env.DATABASE_SCHEMA || null,
    dataDir: path.resolve(env.SEBAR_DATA_DIR ?? 'data'),
    adminEmail: env.SEBAR_ADMIN_EMAIL || null,
    adminPassword: env.SEBAR_ADMIN_PASSWORD || null,
    jwtSecret: env.SEBAR_JWT_SECRET || null,
    secretKey: env.SEBAR_SECRET_KEY || null,
    tokenTtlSeconds: num('SEBAR_TOKEN_TTL_SECONDS', 12 * 60 * 60),
    login: {
      windowMs: num('SEBAR_LOGIN_WINDOW_MS', 15 * 60 * 1000),
      maxPerIp: num('SEBAR_LOGIN_MAX_PER_IP', 50),
      maxPerPair: num('SEBAR_LOGIN_MAX_PER_PAIR', 5),
    },
    trustProxy: parseTrustProxy(env.SEBAR_TRUST_PROXY),
    userRateLimit: num('SEBAR_USER_RATE_LIMIT', 1200),
    clientInFlight: num('SEBAR_CLIENT_IN_FLIGHT', 2),
    clientDir: path.resolve(env.SEBAR_CLIENT_DIR ?? 'dist/client'),
    publicUrl: env.SEBAR_PUBLIC_URL?.trim().replace(/\/+$/, '') || null,
    logLevel: env.LOG_LEVEL ?? 'info',
    deliveryWorker: !['0', 'false', 'off'].includes(env.SEBAR_DELIVERY_WORKER ?? ''),
    delivery: {
      ...ENGINE_DEFAULTS,
      recipientGapMs: num('SEBAR_DELIVERY_RECIPIENT_GAP_MS', ENGINE_DEFAULTS.recipientGapMs),
      unansweredMs: num('SEBAR_DELIVERY_UNANSWERED_MS', ENGINE_DEFAULTS.unansweredMs),
      retryBaseMs: num('SEBAR_DELIVERY_RETRY_MS', ENGINE_DEFAULTS.retryBaseMs),
      pauseMs: num('SEBAR_DELIVERY_PAUSE_MS', ENGINE_DEFAULTS.pauseMs),
      gatewaySecondMs: num('SEBAR_DELIVERY_GATEWAY_SECOND_MS', ENGINE_DEFAULTS.gatewaySecondMs),
    },
  };
}

/**
 * SEBAR_TRUST_PROXY: unset, empty, `false` or `0`: no proxy is trusted; `true`: every hop (only
 * when nothing can reach the server but the proxy); a number: that many hops; anything else: the
 * proxies' addresses or CIDR ranges, comma-separated (e.g. `127.0.0.1` or `10.0.0.0/8`).
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}
