// The sign-in field rules without zod, so the sign-in page stays small; LoginSchema says the same.

export const LOGIN_MESSAGES = {
  email: 'Email harus diisi',
  password: 'Password harus diisi',
} as const;

export type LoginField = keyof typeof LOGIN_MESSAGES;

/** The message of each empty field (email trimmed, password as typed). */
export function loginFieldErrors(values: { email: string; password: string }) {
  const errors: Partial<Record<LoginField, string>> = {};
  if (!values.email.trim()) errors.email = LOGIN_MESSAGES.email;
  if (!values.password) errors.password = LOGIN_MESSAGES.password;
  return errors;
}
