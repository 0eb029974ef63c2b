// Who may call what: every /api route declares its access, tokens are checked against the
// user's current state, and sign-in is rate limited before any password hash is computed.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inJsonArray, type Db, type DbHandle } from '../db/connection.ts';
import type { UsersTable } from '../db/schema.ts';
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

export interface Tokens {
  sign(user: Pick<AuthUser, 'id' | 'token_version'>): Promise<string>;
  /** The user of an Authorization header's bearer token, if it is still valid for them. */
  check(authorization: string | undefined): Promise<AuthUser | null>;
}

// HS256 JWTs with node:crypto: the synchronous HMAC is several times cheaper than WebCrypto's,
// and only the one header we issue is accepted (no `alg: none`, no other algorithm).
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
const base64Json = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface TokenClaims {
  sub: string;
  ver: number;
  exp: number;
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
      const { sub, ver, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        [claim: string]: unknown;
      };
      return typeof sub === 'string' && typeof ver === 'number' && typeof exp === 'number'
        ? { sub, ver, exp }
        : null;
    } catch {
      return null;
    }
  };
  // A signature is checked once per token: the HMAC (OpenSSL 3 sets up a new context each time)
  // cost more than the user's row read. Only headers with a token we signed are kept, so the map
  // holds no attacker's input; expiry and the user's current state are checked on every request.
  // The key is the header as sent: its pattern is then tested once, and the rate limit has
  // already hashed that very string (a 300-character hash and a copy less per request).
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
  return {
    async sign(user) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const payload = base64Json({
        ver: user.token_version,
        sub: user.id,
        iat: issuedAt,
        exp: issuedAt + ttlSeconds,
      });
      const content = `${JWT_HEADER}.${payload}`;
      return `${content}.${signature(content).toString('base64url')}`;
    },
    async check(authorization) {
      const payload = authorization ? claims(authorization) : null;
      if (!payload) return null;
      const user = (await readUsers(payload.sub)).get(payload.sub);
      if (!user || !user.is_active || user.token_version !== payload.ver) return null;
      return user;
    },
  };
}

/** Ids asked for together go to the database in one query, at most this many. */
const MAX_BATCH = 100;

/**
 * Every guarded request reads its user, and under load many arrive in each turn of the event
 * loop: the reads of two turns are made together, after them, in one query (one round trip to
 * PostgreSQL, one read transaction of SQLite) instead of one each. Each read still starts after
 * its request arrived, so it sees every change committed before; a user asked for twice is read
 * once. The function answers the users of the batch it put the id in, by id.
 */
function batchedUserReads(database: DbHandle): (id: string) => Promise<Map<string, AuthUser>> {
  const { sql: byIds } = database.db
    .selectFrom('users')
    .select(AUTH_COLUMNS)
    .where(inJsonArray(database.engine, 'id', ''))
    .compile();
  const read = async (ids: string[]) => {
    const reads = [];
    for (let i = 0; i < ids.length; i += MAX_BATCH) {
      reads.push(database.read<AuthUser>(byIds, [JSON.stringify(ids.slice(i, i + MAX_BATCH))]));
    }
    const users = new Map<string, AuthUser>();
    for (const rows of await Promise.all(reads)) for (const user of rows) users.set(user.id, user);
    return users;
  };
  let batch: { ids: Set<string>; users: Promise<Map<string, AuthUser>> } | null = null;
  // Not async: every request of a batch shares its promise, with no promise of its own.
  return (id) => {
    if (!batch) {
      const ids = new Set<string>();
      const users = new Promise<Map<string, AuthUser>>((resolve, reject) => {
        // Two turns: under load the requests read in the next turn join the batch too.
        setImmediate(() =>
          setImmediate(() => {
            batch = null;
            read([...ids]).then(resolve, reject);
          }),
        );
      });
      batch = { ids, users };
    }
    batch.ids.add(id);
    return batch.users;
  };
}

export function registerAuth(app: FastifyInstance, tokens: Tokens): void {
  app.decorateRequest('user', null);

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
    return async (request: FastifyRequest) => {
      const user = await tokens.check(request.headers.authorization);
      if (!user) throw new HttpError(401, SESSION_INVALID);
      if (access === 'admin' && user.role !== 'super_admin') throw new HttpError(403, FORBIDDEN);
      if (access === 'client' && user.role !== 'client') throw new HttpError(403, FORBIDDEN);
      request.user = user;
    };
  }
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, SESSION_INVALID);
  return request.user;
}

/** Failed sign-ins per IP and per account in a fixed window, checked before any hashing. */
export class LoginLimiter {
  readonly #hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly options: { windowMs: number; maxPerIp: number; maxPerAccount: number },
  ) {}

  #count(key: string, now: number): number {
    const hit = this.#hits.get(key);
    return hit && hit.resetAt > now ? hit.count : 0;
  }

  /** Milliseconds to wait, or 0 when an attempt may go ahead. */
  blockedFor(ip: string, account: string, now = Date.now()): number {
    const blocked = [
      [`ip:${ip}`, this.options.maxPerIp],
      [`acct:${account}`, this.options.maxPerAccount],
    ] as const;
    for (const [key, max] of blocked) {
      if (this.#count(key, now) >= max) return (this.#hits.get(key)?.resetAt ?? now) - now;
    }
    return 0;
  }

  fail(ip: string, account: string, now = Date.now()): void {
    if (this.#hits.size > 100_000) this.#sweep(now);
    for (const key of [`ip:${ip}`, `acct:${account}`]) {
      const hit = this.#hits.get(key);
      if (hit && hit.resetAt > now) hit.count += 1;
      else this.#hits.set(key, { count: 1, resetAt: now + this.options.windowMs });
    }
  }

  succeed(account: string): void {
    this.#hits.delete(`acct:${account}`);
  }

  #sweep(now: number) {
    for (const [key, hit] of this.#hits) if (hit.resetAt <= now) this.#hits.delete(key);
  }
}
