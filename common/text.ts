// Text fields as the API takes them: the length limit applies to the text as sent, which is what
// the API document declares (maxLength), and surrounding whitespace is dropped after the checks.
import { z } from './zod.ts';

/** Not only whitespace: the same characters `trim()` removes (`\s` in JavaScript). */
export const NOT_BLANK = /\S/;

/** Text of at most `max` characters as sent, stored trimmed (it may be empty). */
export const text = (max: number, tooLong?: string) => z.string().max(max, tooLong).trim();

/** Text of at most `max` characters as sent, not blank (`required` says so), stored trimmed. */
export const requiredText = (max: number, required: string, tooLong?: string) =>
  z.string().max(max, tooLong).regex(NOT_BLANK, required).trim();

export const EMAIL_FORMAT_MESSAGE = 'Format email tidak valid';

/** Whether `value` is an email address, by the same rule as an account's email. */
export const isEmail = (value: string) => z.email().safeParse(value).success;
