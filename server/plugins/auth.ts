// Who may call what: every /api route declares its access, and tokens are checked against the
// user's current state.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createSigner, createVerifier } from 'fast-jwt';
import DataLoader from 'dataloader';
import { keptKey } from '#server/db/app-secrets.ts';
import { inJsonArray, type Db, type DbHandle } from '#server/db/connection.ts';
import type { UsersTable } from '#server/db/schema.ts';
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

/** Admin-path routes that clients also call (SPEC: the QR fallback is used by the client too). */
const SHARED_ADMIN_ROUTES = new Set(['/api/admin/qr-data/:filename']);

export const SESSION_INVALID = 'Sesi tidak valid atau telah berakhir. Silakan masuk kembali.';
export const FORBIDDEN = 'Anda tidak memiliki akses ke halaman ini';

/** The signing key: configured, or made once and kept in the database so restarts keep sessions. */
export async function loadJwtKey(db: Db, configured: string | null): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  return keptKey(db, 'jwt');
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
