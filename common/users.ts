// Client accounts as the administrator manages them.
import { EMAIL_FORMAT_MESSAGE, requiredText } from './text.ts';
import { z } from './zod.ts';
import { PasswordSchema, ROLES, UserSchema } from './auth.ts';
import { pageSchema } from './pagination.ts';
import { MAX_BALANCE, MAX_BALANCE_MESSAGE } from './points.ts';

const username = requiredText(50, 'Username harus diisi', 'Username maksimal 50 karakter');
// Trimmed before its format is checked: a pasted address with a space around it is still valid.
const email = requiredText(254, 'Email harus diisi', 'Email maksimal 254 karakter')
  .pipe(z.email(EMAIL_FORMAT_MESSAGE))
  .meta({ format: 'email' }); // the API document shows the input's schema, where the pipe has none
const password = PasswordSchema;

export const CreateUserSchema = z.strictObject({
  username,
  email,
  password,
  // An administrator may create clients and further super administrators.
  role: z.enum(ROLES, 'Role harus client atau super_admin').default('client'),
});
export type CreateUser = z.infer<typeof CreateUserSchema>;

const INTEGER_MESSAGE = 'Poin harus bilangan bulat';

export const UpdateUserSchema = z.strictObject({
  username,
  email,
  // Any balance the server can hold, so no client is locked out of edits. Past 2^53 zod's own
  // integer check answers first, as "too big": the limit is named then too.
  points: z
    .int({ error: (issue) => (issue.code === 'too_big' ? MAX_BALANCE_MESSAGE : INTEGER_MESSAGE) })
    .min(0, 'Poin tidak boleh negatif')
    .max(MAX_BALANCE, MAX_BALANCE_MESSAGE),
  is_active: z.boolean(),
  /**
   * The balance the form was opened with: a balance that moved since is not overwritten. Refunds
   * may have taken it past MAX_BALANCE (decision 255).
   */
  expected_points: z.int().min(0).optional(),
});
export type UpdateUser = z.infer<typeof UpdateUserSchema>;

export const ChangePasswordSchema = z.strictObject({ new_password: password });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const UserStatsSchema = z.object({
  total_clients: z.number(),
  active_clients: z.number(),
  total_points: z.number(),
  average_points: z.number(),
});
export type UserStats = z.infer<typeof UserStatsSchema>;

export const UserPageSchema = pageSchema(UserSchema, UserStatsSchema);
export type UserPage = z.infer<typeof UserPageSchema>;
