// Sign-in, sign-out, the signed-in user and their own password.
import {
  ChangeOwnPasswordSchema,
  ErrorSchema,
  LoginResponseSchema,
  LoginSchema,
  UserSchema,
} from '../../../common/auth.ts';
import type { App, AppContext } from '../../app-context.ts';
import { OkSchema } from '../../http.ts';
import {
  currentSession,
  currentUser,
  hashPassword,
  verifyPassword,
  type LoginLimiter,
} from '../../plugins/auth.ts';
import { HttpError } from '../../plugins/errors.ts';
import { changeOwnPassword, toUser } from '../users/users.service.ts';

export const LOGIN_FAILED = 'Email atau password salah';
export const ACCOUNT_INACTIVE = 'Akun Anda tidak aktif. Hubungi admin.';
export const WRONG_CURRENT_PASSWORD = 'Password saat ini salah';
export const SAME_PASSWORD = 'Password baru harus berbeda dari password saat ini';
export const SIGNED_OUT = 'Anda telah keluar';
export const PASSWORD_CHANGED = 'Password berhasil diubah';

/** 'Coba lagi dalam 8 detik.' under a minute, else in whole minutes. */
export function tooManyAttempts(waitMs: number): string {
  const wait =
    waitMs < 60_000
      ? `${Math.max(1, Math.ceil(waitMs / 1000))} detik`
      : `${Math.ceil(waitMs / 60_000)} menit`;
  return `Terlalu banyak percobaan masuk. Coba lagi dalam ${wait}.`;
}

/** Refuses, before any hashing, a password guess from an address that must wait. */
function checkThrottle(limiter: LoginLimiter, ip: string, account: string) {
  const wait = limiter.blockedFor(ip, account);
  if (wait > 0) throw new HttpError(429, tooManyAttempts(wait));
}

export function authRoutes(app: App, { database, tokens, loginLimiter }: AppContext) {
  // Unknown emails still cost one hash check, so timing does not tell whether an email exists.
  const dummyHash = hashPassword('sebar-dummy-password');

  app.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        body: LoginSchema,
        // Wrong email or password, and an inactive account (the API document lists them).
        response: { 200: LoginResponseSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      checkThrottle(loginLimiter, request.ip, email);
      const user = await database.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirst();
      const valid = await verifyPassword(
        user?.password_hash ?? (await dummyHash),
        request.body.password,
      );
      if (!user || !valid) {
        loginLimiter.fail(request.ip, email);
        throw new HttpError(401, LOGIN_FAILED);
      }
      if (!user.is_active) throw new HttpError(403, ACCOUNT_INACTIVE);
      loginLimiter.succeed(request.ip, email);
      return {
        access_token: await tokens.sign(user),
        token_type: 'bearer' as const,
        user: toUser(user),
      };
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: OkSchema } } },
    async (request) => {
      await tokens.revoke(currentSession(request));
      return { detail: SIGNED_OUT };
    },
  );

  // The caller's other tokens stop working; the answer carries a new token for this session.
  app.post(
    '/api/auth/change-password',
    {
      config: { access: 'user' },
      schema: {
        tags: ['auth'],
        body: ChangeOwnPasswordSchema,
        response: { 200: LoginResponseSchema.extend({ detail: OkSchema.shape.detail }) },
      },
    },
    async (request) => {
      const { user } = currentSession(request);
      const { current_password, new_password } = request.body;
      // The current password is a password guess like a sign-in's: throttled the same way.
      checkThrottle(loginLimiter, request.ip, user.email);
      const stored = await database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(stored.password_hash, current_password))) {
        loginLimiter.fail(request.ip, user.email);
        throw new HttpError(400, WRONG_CURRENT_PASSWORD);
      }
      if (new_password === current_password) throw new HttpError(400, SAME_PASSWORD);
      const changed = await changeOwnPassword(database, user.id, new_password);
      loginLimiter.lift(user.email);
      return {
        detail: PASSWORD_CHANGED,
        access_token: await tokens.sign(changed),
        token_type: 'bearer' as const,
        user: toUser(changed),
      };
    },
  );

  app.get(
    '/api/auth/me',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: UserSchema } } },
    async (request) => toUser(currentUser(request)),
  );
}
