// Sign-in and the signed-in user.
import { ErrorSchema, LoginResponseSchema, LoginSchema, UserSchema } from '../../../common/auth.ts';
import type { App, AppContext } from '../../app-context.ts';
import { currentUser, hashPassword, verifyPassword } from '../../plugins/auth.ts';
import { HttpError } from '../../plugins/errors.ts';
import { toUser } from '../users/users.service.ts';

export const LOGIN_FAILED = 'Email atau password salah';
export const ACCOUNT_INACTIVE = 'Akun Anda tidak aktif. Hubungi admin.';

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
      const wait = loginLimiter.blockedFor(request.ip, email);
      if (wait > 0) {
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        throw new HttpError(
          429,
          `Terlalu banyak percobaan masuk. Coba lagi dalam ${minutes} menit.`,
        );
      }
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
      loginLimiter.succeed(email);
      return {
        access_token: await tokens.sign(user),
        token_type: 'bearer' as const,
        user: toUser(user),
      };
    },
  );

  app.get(
    '/api/auth/me',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: UserSchema } } },
    async (request) => toUser(currentUser(request)),
  );
}
