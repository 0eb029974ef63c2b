// Sign-in and the own password change: the password checks, throttled before any hashing.
import type { UsersTable } from '#server/db/schema.ts';
import type { DbHandle } from '#server/db/connection.ts';
import type { AuthUser } from '#server/plugins/auth.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { HttpError } from '#server/plugins/errors.ts';
import { changeOwnPassword } from '#server/modules/users/users.service.ts';

export const LOGIN_FAILED = 'Email atau password salah';
export const ACCOUNT_INACTIVE = 'Akun Anda tidak aktif. Hubungi admin.';
export const WRONG_CURRENT_PASSWORD = 'Password saat ini salah';
export const SAME_PASSWORD = 'Password baru harus berbeda dari password saat ini';

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

/** A hash to check unknown emails against, made once per server (`signIn` says why). */
export const makeDummyHash = () => hashPassword('sebar-dummy-password');

/** The active user of an email and password, from address `ip`; refused with the reason. */
export async function signIn(
  { db }: DbHandle,
  limiter: LoginLimiter,
  dummyHash: Promise<string>,
  ip: string,
  { email: given, password }: { email: string; password: string },
): Promise<UsersTable> {
  const email = given.trim().toLowerCase();
  checkThrottle(limiter, ip, email);
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirst();
  // Unknown emails still cost one hash check, so timing does not tell whether an email exists.
  const valid = await verifyPassword(user?.password_hash ?? (await dummyHash), password);
  if (!user || !valid) {
    limiter.fail(ip, email);
    throw new HttpError(401, LOGIN_FAILED);
  }
  if (!user.is_active) throw new HttpError(403, ACCOUNT_INACTIVE);
  limiter.succeed(ip, email);
  return user;
}

/**
 * The signed-in user's own password change: the current password is a password guess like a
 * sign-in's, throttled the same way. Answers the user with its new token version.
 */
export async function changePassword(
  database: DbHandle,
  limiter: LoginLimiter,
  ip: string,
  user: AuthUser,
  { current_password, new_password }: { current_password: string; new_password: string },
) {
  checkThrottle(limiter, ip, user.email);
  const stored = await database.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(stored.password_hash, current_password))) {
    limiter.fail(ip, user.email);
    throw new HttpError(400, WRONG_CURRENT_PASSWORD);
  }
  if (new_password === current_password) throw new HttpError(400, SAME_PASSWORD);
  const changed = await changeOwnPassword(database, user.id, new_password);
  limiter.lift(user.email);
  return changed;
}
