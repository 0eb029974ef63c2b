// Sign-in payload and the user as the server presents it.
import { LOGIN_MESSAGES } from './login-rules.ts';
import { requiredText } from './text.ts';
import { z } from './zod.ts';

export const ROLES = ['super_admin', 'client'] as const;
export type Role = (typeof ROLES)[number];
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

/** A new password, as account creation and every password change take it. */
export const PasswordSchema = z
  .string()
  .min(1, { error: 'Password harus diisi', abort: true })
  .min(MIN_PASSWORD_LENGTH, `Password minimal ${MIN_PASSWORD_LENGTH} karakter`)
  .max(MAX_PASSWORD_LENGTH, `Password maksimal ${MAX_PASSWORD_LENGTH} karakter`);

export const LoginSchema = z.strictObject({
  email: requiredText(254, LOGIN_MESSAGES.email),
  password: z.string().min(1, LOGIN_MESSAGES.password).max(MAX_PASSWORD_LENGTH),
});
export type Login = z.infer<typeof LoginSchema>;

export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  points: z.number(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const LoginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: UserSchema,
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const ErrorSchema = z.object({
  detail: z.string(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ErrorSchema>;

/** A signed-in user's own password change (POST /api/auth/change-password). */
export const ChangeOwnPasswordSchema = z.strictObject({
  current_password: z
    .string()
    .min(1, 'Password saat ini harus diisi')
    .max(MAX_PASSWORD_LENGTH, `Password maksimal ${MAX_PASSWORD_LENGTH} karakter`),
  new_password: PasswordSchema,
});
export type ChangeOwnPassword = z.infer<typeof ChangeOwnPasswordSchema>;
