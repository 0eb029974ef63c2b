// Sign-in, sign-out, the signed-in user and their own password.
import {
  ChangeOwnPasswordSchema,
  ErrorSchema,
  LoginResponseSchema,
  LoginSchema,
  UserSchema,
} from '#common/auth.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { OkSchema } from '#server/http.ts';
import { currentSession, currentUser } from '#server/plugins/auth.ts';
import { toUser } from '#server/modules/users/users.service.ts';
import { changePassword, makeDummyHash, signIn } from './auth.service.ts';

export const SIGNED_OUT = 'Anda telah keluar';
export const PASSWORD_CHANGED = 'Password berhasil diubah';

export function authRoutes(app: App, { database, tokens, loginLimiter }: AppContext) {
  const dummyHash = makeDummyHash();

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
      const user = await signIn(database, loginLimiter, dummyHash, request.ip, request.body);
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
      const changed = await changePassword(database, loginLimiter, request.ip, user, request.body);
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
