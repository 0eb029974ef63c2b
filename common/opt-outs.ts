// The opt-out list: numbers that asked to receive no more blasts, and the admin's API to it.
import { isValidNumber } from './phone.ts';
import { pageSchema, PageQuerySchema } from './pagination.ts';
import { OPT_OUT_MESSAGES } from './opt-out-rules.ts';
import { NOT_BLANK, text } from './text.ts';
import { z } from './zod.ts';

export * from './opt-out-rules.ts';

/** How a number came on the list: its own keyword message, or the admin's hand. */
export const OPT_OUT_SOURCES = ['whatsapp', 'admin'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** The admin adds a number as a blast takes it (SPEC's rule); it is kept normalised, 62…. */
export const OptOutInputSchema = z.strictObject({
  number: z
    .string()
    .max(40, OPT_OUT_MESSAGES.invalidNumber)
    .regex(NOT_BLANK, { error: OPT_OUT_MESSAGES.numberRequired, abort: true })
    .trim()
    .refine(isValidNumber, OPT_OUT_MESSAGES.invalidNumber),
});
export type OptOutInput = z.infer<typeof OptOutInputSchema>;

export const OptOutSchema = z.object({
  /** Sebar's form, digits from 62, as a blast's numbers are stored. */
  number: z.string(),
  source: z.enum(OPT_OUT_SOURCES),
  /** The message that did it, as sent (trimmed); null when the admin added the number. */
  keyword: z.string().nullable(),
  /** The channel the message came through ('cloud_api'); null when the admin added it. */
  channel: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  /** The admin who added it, while that account exists. */
  created_by_username: z.string().nullable(),
});
export type OptOut = z.infer<typeof OptOutSchema>;

export const OptOutSummarySchema = z.object({
  /** The whole list, whatever the search. */
  total: z.number(),
  whatsapp: z.number(),
  admin: z.number(),
});

export const OptOutPageSchema = pageSchema(OptOutSchema, OptOutSummarySchema);
export type OptOutPage = z.infer<typeof OptOutPageSchema>;

export const OptOutQuerySchema = PageQuerySchema.extend({
  /** Digits anywhere in the number; a leading 0 or +62 is read as 62. */
  search: text(40).optional(),
});
export type OptOutQuery = z.infer<typeof OptOutQuerySchema>;

export const OptOutParamsSchema = z.object({ number: z.string().max(40) });
