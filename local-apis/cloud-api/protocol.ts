// The request bodies of the Cloud API that the double accepts, as zod schemas, and the translation
// of a schema failure into the Graph error Meta answers (code 100, naming the parameter).
import { z } from 'zod';
import { graphError, type GraphError } from './errors.ts';

const MediaObject = z
  .object({
    id: z.string().min(1).optional(),
    link: z.string().url().optional(),
    caption: z.string().optional(),
    filename: z.string().optional(),
  })
  .refine((media) => media.id !== undefined || media.link !== undefined, {
    message: 'must have an id or a link',
  });

const TextParameter = z.object({
  type: z.literal('text'),
  text: z.string(),
  parameter_name: z.string().optional(),
});

/** A parameter of a send's component (the `parameters` array items). */
export const SendParameter = z.discriminatedUnion('type', [
  TextParameter,
  z.object({ type: z.literal('image'), image: MediaObject }),
  z.object({ type: z.literal('video'), video: MediaObject }),
  z.object({ type: z.literal('document'), document: MediaObject }),
  z.object({ type: z.literal('payload'), payload: z.string() }),
  z.object({
    type: z.literal('currency'),
    currency: z.object({ fallback_value: z.string(), code: z.string(), amount_1000: z.number() }),
    parameter_name: z.string().optional(),
  }),
  z.object({
    type: z.literal('date_time'),
    date_time: z.object({ fallback_value: z.string() }),
    parameter_name: z.string().optional(),
  }),
]);
export type SendParameter = z.infer<typeof SendParameter>;

export const SendComponent = z.object({
  type: z.enum(['header', 'body', 'button']),
  sub_type: z.enum(['quick_reply', 'url', 'copy_code']).optional(),
  index: z.union([z.string(), z.number()]).optional(),
  parameters: z.array(SendParameter).optional(),
});
export type SendComponent = z.infer<typeof SendComponent>;

/** `POST /{version}/{phone_number_id}/messages` for a template message. */
export const SendMessageRequest = z.object({
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.literal('individual').optional(),
  to: z.string().regex(/^\+?[0-9][0-9 -]{5,20}$/),
  type: z.literal('template'),
  template: z.object({
    name: z.string().min(1),
    language: z.object({
      code: z.string().min(1),
      policy: z.literal('deterministic').optional(),
    }),
    components: z.array(SendComponent).optional(),
  }),
  biz_opaque_callback_data: z.string().max(512).optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

/** The value at a path of the received body, to tell a missing parameter from a wrong one. */
function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The Graph error for the first problem zod found: a missing parameter or a wrong value. */
export function schemaError(error: z.ZodError, body: unknown): GraphError {
  const issue = error.issues[0];
  if (!issue) return graphError(100);
  const path = issue.path.map(String).join('.') || 'body';
  if (issue.path.length > 0 && valueAt(body, issue.path) === undefined) {
    return graphError(100, `The parameter ${path} is required.`, {
      message: `(#100) The parameter ${path} is required.`,
    });
  }
  return graphError(100, `Param ${path} is not valid: ${issue.message}`);
}

/** The digits of a phone number, as WhatsApp ids are written. */
export function waId(to: string): string {
  return to.replace(/[^0-9]/g, '');
}
