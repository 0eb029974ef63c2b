// Who may call what: every /api route declares its access, tokens are checked against the
// user's current state, and sign-in is rate limited before any password hash is computed.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createSigner, createVerifier } from 'fast-jwt';
import DataLoader from 'dataloader';
import { inJsonArray, type Db, type DbHandle } from '#server/db/connection.ts';
import type { UsersTable } from '#server/db/schema.ts';
import { normalizeIP } from '@fastify/rate-limit';
import { HttpError } from './errors.ts';

/** public: anyone; user: any signed-in user; admin: super_admin; client: a client. */
export type Access = 'public' | 'user' | 'admin' | 'client';

/** What a guarded route knows of its caller: read fresh on every request, without secrets. */
const AUTH_COLUMNS = [
  'id',
  'username',
  'email',
  'role',
  'points',
  'is_active',
  'token_version',
  'created_at',
] as const;
export type AuthUser = Pick<UsersTable, (typeof AUTH_COLUMNS)[number]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    session: Session | null;
  }
}

// algorithm 2 is Argon2id (a const enum the package does not export as a value).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
/** Argon2 computations so far: tests prove a blocked sign-in computes none. */
export const passwordHashes = { computed: 0 };
export const hashPassword = (password: string) => {
  passwordHashes.computed += 1;
  return hash(password, ARGON2);
};
export const verifyPassword = (stored: string, password: string) => {
  passwordHashes.computed += 1;
  return verify(stored, password).catch(() => false);
};

/** Admin-path routes that clients also call (SPEC: the QR fallback is used by the client too). */
const SHARED_ADMIN_ROUTES = new Set(['/api/admin/qr-data/:filename']);

export const SESSION_INVALID = 'Sesi tidak valid atau telah berakhir. Silakan masuk kembali.';
export const FORBIDDEN = 'Anda tidak memiliki akses ke halaman ini';

/** The signing key: configured, or made once and kept in the database so restarts keep sessions. */
export async function loadJwtKey(db: Db, configured: string | null): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto('app_secrets')
    .values({ name: 'jwt', value: crypto.randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'jwt')
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

/** A checked token: its user (read fresh) and what the token itself says. */
export interface Session {
  user: AuthUser;
  /** The token's id (null for a token issued before tokens had ids). */
  jti: string | null;
  /** When it expires, seconds since the epoch. */
  exp: number;
}

export interface Tokens {
  sign(user: Pick<AuthUser, 'id' | 'token_version'>): Promise<string>;
  /** The session of an Authorization header's bearer token, if it is still valid for its user. */
  check(authorization: string | undefined): Promise<Session | null>;
  /** Refuses the session's token from now on, until it would have expired anyway. */
  revoke(session: Session): Promise<void>;
}

// The scheme is case-insensitive (RFC 9110).
const BEARER = /^bearer ([^ ]{10,2048})$/i;
// An HS256 JWT whose signature (32 bytes, 43 characters) is spelled the one canonical way: the
// last character's two unused bits are zero. fast-jwt decodes the others to the same bytes, so
// without this a changed copy of a token would pass for it.
const HS256_TOKEN = /^[\w-]+\.[\w-]+\.[\w-]{42}[AEIMQUYcgkosw048]$/;

/** What our tokens claim: the user, its token version (a password change ends older tokens). */
interface TokenClaims {
  sub: string;
  ver: number;
  exp: number;
  jti?: unknown;
}

const isClaims = (payload: { [claim: string]: unknown }): payload is TokenClaims & typeof payload =>
  typeof payload.sub === 'string' &&
  typeof payload.ver === 'number' &&
  typeof payload.exp === 'number';

/**
 * HS256 JWTs signed and checked by fast-jwt (only HS256 is accepted, and an expired token is
 * refused). Its cache keeps the outcome of recently checked tokens; the user's current state and
 * whether the token was signed out are read on every request, in one query.
 */
export function createTokens(database: DbHandle, key: Uint8Array, ttlSeconds: number): Tokens {
  const secret = Buffer.from(key);
  const signToken = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  const verifyToken = createVerifier({ key: secret, algorithms: ['HS256'], cache: true });
  const checks = tokenChecks(database);
  const claims = (authorization: string): TokenClaims | null => {
    const token = BEARER.exec(authorization)?.[1];
    if (!token || !HS256_TOKEN.test(token)) return null;
    try {
      const payload = verifyToken(token) as { [claim: string]: unknown };
      return isClaims(payload) ? payload : null;
    } catch {
      return null;
    }
  };
  return {
    async sign(user) {
      return signToken({
        ver: user.token_version,
        sub: user.id,
        jti: crypto.randomBytes(16).toString('base64url'),
      });
    },
    async check(authorization) {
      const payload = authorization ? claims(authorization) : null;
      if (!payload) return null;
      const jti = typeof payload.jti === 'string' ? payload.jti : null;
      const found = await checks.load({ id: payload.sub, jti });
      if (!found) return null;
      const { revoked, ...user } = found;
      if (revoked || !user.is_active || user.token_version !== payload.ver) return null;
      return { user, jti, exp: payload.exp };
    },
    async revoke({ user, jti, exp }) {
      if (jti === null) {
        // A token from before tokens had ids can only be ended with all of its user's tokens.
        await database.db
          .updateTable('users')
          .set({ token_version: user.token_version + 1 })
          .where('id', '=', user.id)
          .where('token_version', '=', user.token_version)
          .execute();
        return;
      }
      await database.db
        .insertInto('revoked_tokens')
        .values({ jti, user_id: user.id, expires_at: exp })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
    },
  };
}

/** A user as the token check reads it: `revoked` when the token was signed out. */
type CheckedUser = AuthUser & { revoked: boolean };
interface TokenRef {
  id: string;
  jti: string | null;
}

/**
 * The users and signed-out tokens of the requests that arrive together, read by one query each
 * (DataLoader batches the loads of one tick and caches nothing): every request still sees the
 * state of the moment it arrived (docs/decisions/161).
 */
function tokenChecks({ db, engine }: DbHandle) {
  return new DataLoader<TokenRef, CheckedUser | undefined, string>(
    async (refs) => {
      const ids = JSON.stringify([...new Set(refs.map((ref) => ref.id))]);
      const jtis = JSON.stringify(refs.flatMap((ref) => (ref.jti ? [ref.jti] : [])));
      const [users, revoked] = await Promise.all([
        db
          .selectFrom('users')
          .select(AUTH_COLUMNS)
          .where(inJsonArray(engine, 'id', ids))
          .execute(),
        db
          .selectFrom('revoked_tokens')
          .select('jti')
          .where(inJsonArray(engine, 'jti', jtis))
          .execute(),
      ]);
      const byId = new Map(users.map((user) => [user.id, user]));
      const signedOut = new Set(revoked.map((row) => row.jti));
      return refs.map(({ id, jti }) => {
        const user = byId.get(id);
        return user && { ...user, revoked: jti !== null && signedOut.has(jti) };
      });
    },
    // After the sockets that were ready together are read, not after each one.
    { cache: false, batchScheduleFn: (load) => setImmediate(load) },
  );
}

/** Signed-out tokens past their expiry: they would be refused anyway, so their rows can go. */
export async function purgeRevokedTokens({ db }: DbHandle): Promise<void> {
  await db
    .deleteFrom('revoked_tokens')
    .where('expires_at', '<', Math.floor(Date.now() / 1000))
    .execute();
}

/**
 * Guards every route under /api by its declared access. The token is checked first (onRequest),
 * so the rate limit that follows counts the request under its verified user; the access is
 * enforced after it (preParsing), before any body is read.
 */
export function registerAuth(app: FastifyInstance, tokens: Tokens): void {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);

  // A route under /api without a declared access, or one whose prefix promises another role,
  // stops the server from starting; every other route gets its guard here, once.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`route ${route.method} ${route.url} declares no access`);
    if (
      route.url.startsWith('/api/admin') &&
      access !== 'admin' &&
      !SHARED_ADMIN_ROUTES.has(route.url)
    ) {
      throw new Error(`route ${route.url} must be admin-only`);
    }
    if (route.url.startsWith('/api/client') && access !== 'client') {
      throw new Error(`route ${route.url} must be client-only`);
    }
    if (access === 'public') return;
    route.onRequest = [route.onRequest ?? []].flat().concat(identify);
    route.preParsing = [route.preParsing ?? []].flat().concat(requireAccess(access));
  });

  async function identify(request: FastifyRequest) {
    const session = await tokens.check(request.headers.authorization);
    request.session = session;
    request.user = session?.user ?? null;
  }
}

function requireAccess(access: Exclude<Access, 'public'>) {
  return async (request: FastifyRequest) => {
    const { user } = request;
    if (!user) throw new HttpError(401, SESSION_INVALID);
    if (access === 'admin' && user.role !== 'super_admin') throw new HttpError(403, FORBIDDEN);
    if (access === 'client' && user.role !== 'client') throw new HttpError(403, FORBIDDEN);
  };
}

/** The checked token of a guarded route. */
export function currentSession(request: FastifyRequest): Session {
  if (!request.session) throw new HttpError(401, SESSION_INVALID);
  return request.session;
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, SESSION_INVALID);
  return request.user;
}

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
