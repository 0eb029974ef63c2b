// Who may call what: every /api route declares its access, tokens are checked against the
// user's current state, and sign-in is rate limited before any password hash is computed.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inJsonArray, type Db, type DbHandle } from '../db/connection.ts';
import type { UsersTable } from '../db/schema.ts';
import { addressKey } from './address.ts';
import { HttpError } from './errors.ts';
import type { RateLimit } from './rate-limit.ts';

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

// HS256 JWTs with node:crypto: the synchronous HMAC is several times cheaper than WebCrypto's,
// and only the one header we issue is accepted (no `alg: none`, no other algorithm).
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
const base64Json = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface TokenClaims {
  sub: string;
  ver: number;
  exp: number;
  jti: string | null;
}

/** Headers whose token was checked, at most this many (a client sends its token on every call). */
const VERIFIED_TOKENS = 10_000;
// The scheme is case-insensitive (RFC 9110); the token is exactly what we issued.
const BEARER = /^bearer ([A-Za-z0-9._-]{10,2048})$/i;

export function createTokens(database: DbHandle, key: Uint8Array, ttlSeconds: number): Tokens {
  const signature = (content: string) => crypto.createHmac('sha256', key).update(content).digest();
  /** The claims of a token whose header and signature are ours, or null. */
  const verify = (token: string): TokenClaims | null => {
    const [header, payload, signed, extra] = token.split('.');
    if (header !== JWT_HEADER || !payload || !signed || extra !== undefined) return null;
    // Compared as text: decoding would accept other spellings of the same bytes (the last
    // character's unused bits), so a changed token could pass for the one we issued.
    const given = Buffer.from(signed);
    const expected = Buffer.from(signature(`${header}.${payload}`).toString('base64url'));
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
    try {
      const { sub, ver, exp, jti } = JSON.parse(
        Buffer.from(payload, 'base64url').toString('utf8'),
      ) as { [claim: string]: unknown };
      if (typeof sub !== 'string' || typeof ver !== 'number' || typeof exp !== 'number')
        return null;
      return { sub, ver, exp, jti: typeof jti === 'string' ? jti : null };
    } catch {
      return null;
    }
  };
  // A signature is checked once per token: the HMAC (OpenSSL 3 sets up a new context each time)
  // cost more than the user's row read. Only headers with a token we signed are kept, so the map
  // holds no attacker's input; expiry and the user's current state are checked on every request.
  // The key is the header as sent: its pattern is then tested once per header.
  const verified = new Map<string, TokenClaims>();
  const claims = (header: string): TokenClaims | null => {
    let found = verified.get(header);
    if (!found) {
      const token = BEARER.exec(header)?.[1];
      const checked = token ? verify(token) : null;
      if (!checked) return null;
      if (verified.size >= VERIFIED_TOKENS) verified.clear();
      verified.set(header, (found = checked));
    }
    return found.exp * 1000 > Date.now() ? found : null;
  };
  const readUsers = batchedUserReads(database);
  const isRevoked = async (jti: string) =>
    (await database.db
      .selectFrom('revoked_tokens')
      .select('jti')
      .where('jti', '=', jti)
      .executeTakeFirst()) !== undefined;
  return {
    async sign(user) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const payload = base64Json({
        ver: user.token_version,
        sub: user.id,
        iat: issuedAt,
        exp: issuedAt + ttlSeconds,
        jti: crypto.randomBytes(16).toString('base64url'),
      });
      const content = `${JWT_HEADER}.${payload}`;
      return `${content}.${signature(content).toString('base64url')}`;
    },
    async check(authorization) {
      const payload = authorization ? claims(authorization) : null;
      if (!payload) return null;
      const { jti } = payload;
      const found = (await readUsers(payload.sub, jti)).get(payload.sub);
      if (!found || !found.is_active || found.token_version !== payload.ver) return null;
      const { revoked, ...user } = found;
      // The batch's read tells whether any token of its batch of this user was signed out; only
      // then is this one looked up (a signed-out token in use is rare).
      if (jti !== null && revoked && (await isRevoked(jti))) return null;
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

/** A user as the token check reads it: `revoked` when a token id of the batch was signed out. */
type CheckedUser = AuthUser & { revoked: unknown };

/**
 * The users of a JSON array of ids (the second parameter), each with whether one of a JSON array
 * of token ids (the first) is a signed-out token of theirs: one query for both.
 */
const usersWithRevocations = ({ db, engine }: DbHandle, jtis: string, ids: string) =>
  db
    .selectFrom('users')
    .select(AUTH_COLUMNS)
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('revoked_tokens')
            .select('revoked_tokens.jti')
            .whereRef('revoked_tokens.user_id', '=', 'users.id')
            .where(inJsonArray(engine, 'revoked_tokens.jti', jtis)),
        )
        .as('revoked'),
    )
    .where(inJsonArray(engine, 'users.id', ids));

/** Ids asked for together go to the database in one query, at most this many. */
const MAX_BATCH = 100;

/**
 * Every guarded request reads its user, and under load many arrive in each turn of the event
 * loop: the reads of two turns are made together, after them, in one query (one round trip to
 * PostgreSQL, one read transaction of SQLite) instead of one each. Each read still starts after
 * its request arrived, so it sees every change committed before; a user asked for twice is read
 * once. The function answers the users of the batch it put the id in, by id.
 */
function batchedUserReads(
  database: DbHandle,
): (id: string, jti: string | null) => Promise<Map<string, CheckedUser>> {
  const read = async (ids: string[], jtis: string[]) => {
    const reads = [];
    const tokens = JSON.stringify(jtis);
    for (let i = 0; i < ids.length; i += MAX_BATCH) {
      const batch = JSON.stringify(ids.slice(i, i + MAX_BATCH));
      reads.push(usersWithRevocations(database, tokens, batch).execute());
    }
    const users = new Map<string, CheckedUser>();
    for (const rows of await Promise.all(reads)) for (const user of rows) users.set(user.id, user);
    return users;
  };
  let batch: {
    ids: Set<string>;
    jtis: Set<string>;
    users: Promise<Map<string, CheckedUser>>;
  } | null = null;
  // Not async: every request of a batch shares its promise, with no promise of its own.
  return (id, jti) => {
    if (!batch) {
      const ids = new Set<string>();
      const jtis = new Set<string>();
      const users = new Promise<Map<string, CheckedUser>>((resolve, reject) => {
        // Two turns: under load the requests read in the next turn join the batch too.
        setImmediate(() =>
          setImmediate(() => {
            batch = null;
            read([...ids], [...jtis]).then(resolve, reject);
          }),
        );
      });
      batch = { ids, jtis, users };
    }
    batch.ids.add(id);
    if (jti !== null) batch.jtis.add(jti);
    return batch.users;
  };
}

/** Signed-out tokens past their expiry: they would be refused anyway, so their rows can go. */
export async function purgeRevokedTokens({ db }: DbHandle): Promise<void> {
  await db
    .deleteFrom('revoked_tokens')
    .where('expires_at', '<', Math.floor(Date.now() / 1000))
    .execute();
}

/**
 * Guards every route under /api by its declared access. `limit`, when given, counts each guarded
 * request under its verified user, or under its address when the token is missing or bad.
 */
export function registerAuth(app: FastifyInstance, tokens: Tokens, limit: RateLimit | null): void {
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
    if (access !== 'public') route.onRequest = [route.onRequest ?? []].flat().concat(guard(access));
  });

  function guard(access: Exclude<Access, 'public'>) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await tokens.check(request.headers.authorization);
      limit?.count(request, reply, session?.user.id ?? null);
      if (!session) throw new HttpError(401, SESSION_INVALID);
      const { user } = session;
      if (access === 'admin' && user.role !== 'super_admin') throw new HttpError(403, FORBIDDEN);
      if (access === 'client' && user.role !== 'client') throw new HttpError(403, FORBIDDEN);
      request.user = user;
      request.session = session;
    };
  }
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
 * Failed sign-ins, checked before any hashing (an IPv6 address counts by its /64, address.ts).
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

  static #pairKey = (ip: string, account: string) => `${account}\u0000${addressKey(ip)}`;

  /** Milliseconds to wait, or 0 when an attempt may go ahead. */
  blockedFor(ip: string, account: string, now = Date.now()): number {
    const byIp = this.#ips.get(addressKey(ip));
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
    const address = addressKey(ip);
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
