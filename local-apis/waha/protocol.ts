// The request bodies the double accepts, as zod schemas after WAHA's DTOs (src/structures/
// sessions.dto.ts, webhooks.config.dto.ts, chatting.dto.ts), and what it says about itself.
import { z } from 'zod';

/** What the double says it is, in `environment` of every webhook and in `GET /api/version`. */
export const ENVIRONMENT = {
  version: '2026.7.2',
  engine: 'GOWS',
  tier: 'PLUS',
  browser: null,
};

/** WAHA's session statuses. */
export type SessionStatus = 'STOPPED' | 'STARTING' | 'SCAN_QR_CODE' | 'WORKING' | 'FAILED';

/** The events a webhook may subscribe to (WAHAEvents), `*` for all of them. */
export const EVENTS = [
  'session.status',
  'message',
  'message.reaction',
  'message.any',
  'message.ack',
  'message.ack.group',
  'message.revoked',
  'message.edited',
  'message.waiting',
  'state.change',
  'group.join',
  'group.leave',
  'group.v2.join',
  'group.v2.leave',
  'group.v2.update',
  'group.v2.participants',
  'presence.update',
  'poll.vote',
  'poll.vote.failed',
  'chat.archive',
  'call.received',
  'call.accepted',
  'call.rejected',
  'label.upsert',
  'label.deleted',
  'label.chat.added',
  'label.chat.deleted',
  'event.response',
  'event.response.failed',
  'engine.event',
] as const;

export const RetryPolicy = z.enum(['linear', 'exponential', 'constant']);

export const WebhookConfig = z.object({
  url: z.string().regex(/^https?:\/\/[^\s/]+/, 'url must be a URL address'),
  events: z.array(z.enum([...EVENTS, '*'])),
  hmac: z.object({ key: z.string().optional() }).nullish(),
  retries: z
    .object({
      delaySeconds: z.number().nonnegative().optional(),
      attempts: z.number().int().nonnegative().optional(),
      policy: RetryPolicy.optional(),
    })
    .nullish(),
  customHeaders: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
});
export type WebhookConfig = z.infer<typeof WebhookConfig>;

/** A session's config; the fields the double does not use (proxy, debug, noweb…) are kept. */
export const SessionConfig = z.looseObject({
  webhooks: z.array(WebhookConfig).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
});
export type SessionConfig = z.infer<typeof SessionConfig>;

export const SessionCreateRequest = z.object({
  name: z
    .string()
    .max(54)
    .regex(/^[a-zA-Z0-9_-]+$/, 'name may hold letters, digits, - and _')
    .optional(),
  config: SessionConfig.nullish(),
  start: z.boolean().optional(),
});

export const SessionUpdateRequest = z.object({ config: SessionConfig.nullish() });

const session = z.string().min(1).default('default');

export const SendTextRequest = z.object({
  session,
  chatId: z.string(),
  text: z.string(),
  reply_to: z.string().nullish(),
  linkPreview: z.boolean().optional(),
  linkPreviewHighQuality: z.boolean().optional(),
  mentions: z.array(z.string()).nullish(),
});
export type SendTextRequest = z.infer<typeof SendTextRequest>;

export const SendImageRequest = z.object({
  session,
  chatId: z.string(),
  file: z
    .object({
      mimetype: z.string().optional(),
      filename: z.string().nullish(),
      url: z.string().optional(),
      data: z.string().optional(),
    })
    .refine((file) => file.url !== undefined || file.data !== undefined, {
      message: 'file must have url or data',
    }),
  caption: z.string().nullish(),
  reply_to: z.string().nullish(),
});
export type SendImageRequest = z.infer<typeof SendImageRequest>;

/** startTyping, stopTyping and sendSeen. */
export const ChatRequest = z.looseObject({ session, chatId: z.string() });

/** The messages of a NestJS validation failure: one per problem, naming the field. */
export function validationMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
