// The options of the double and the state its routes share: what was sent, what was uploaded,
// the limits, the outcome book and the webhook sender.
import type { FastifyReply } from 'fastify';
import type { RequestLog } from '#local-apis/shared/request-log.ts';
import type { GraphError } from './errors.ts';
import type { SendLimits } from './limits.ts';
import type { OutcomeBook, Outcome, Outcomes } from './outcomes.ts';
import type { SendComponent } from './protocol.ts';
import type { MessageTemplate } from './templates.ts';
import type { WebhookSender } from './webhooks.ts';

export interface LocalCloudApiOptions {
  /** 0 picks a free port. */
  port: number;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /**
   * Phone numbers of another business account that the same token reaches, as the test number
   * Meta gives every app: each answers by its id, none is in this account's `phone_numbers`.
   */
  otherPhoneNumbers: { id: string; displayPhoneNumber: string; verifiedName: string }[];
  /** Where status webhooks go; none are posted without it. */
  webhookUrl?: string;
  templates: MessageTemplate[];
  /** Outcomes by recipient: a map by number or a function; every send is read when absent. */
  outcomes?: Outcomes;
  messagesPerSecond: number;
  recipientGapMs: number;
  dailyRecipientLimit?: number;
  /** The gap between a send's statuses (sent, delivered, read). */
  statusDelayMs: number;
  /** The wait before the first webhook retry; it doubles on each further retry. */
  webhookRetryMs: number;
  webhookMaxAttempts: number;
  /** How long a `timeout` outcome holds its answer when the outcome names no time. */
  timeoutMs: number;
  /** The first this many media uploads lose their connection, unanswered (a network failure). */
  mediaUploadsDropped?: number;
}

export const DEFAULT_OPTIONS: Omit<LocalCloudApiOptions, 'templates'> = {
  port: 0,
  accessToken: 'local-access-token',
  appSecret: 'local-app-secret',
  verifyToken: 'local-verify-token',
  phoneNumberId: '100200300400500',
  businessAccountId: '900800700600500',
  displayPhoneNumber: '62 811-0000-0000',
  verifiedName: 'Sebar Lokal',
  otherPhoneNumbers: [
    { id: '100200300400599', displayPhoneNumber: '1 555-000-1234', verifiedName: 'Test Number' },
  ],
  messagesPerSecond: 80,
  recipientGapMs: 6000,
  statusDelayMs: 20,
  webhookRetryMs: 100,
  webhookMaxAttempts: 5,
  timeoutMs: 30_000,
};

/** An accepted send, as a test reads it. */
export interface RecordedSend {
  to: string;
  template: string;
  language: string;
  /** As sent: absent when the request had none. */
  components?: SendComponent[];
  biz_opaque_callback_data?: string;
  wamid: string;
  outcome: Outcome;
  at: number;
}

export interface StoredMedia {
  id: string;
  bytes: Buffer;
  mimeType: string;
  filename: string;
  sha256: string;
  at: number;
}

export interface DoubleContext {
  options: LocalCloudApiOptions;
  baseUrl: () => string;
  sends: RecordedSend[];
  /** Every HTTP request received, with its parsed body. */
  log: RequestLog;
  media: Map<string, StoredMedia>;
  limits: SendLimits;
  outcomes: OutcomeBook;
  webhooks: WebhookSender;
  /** Answers held by `timeout` outcomes, released on close. */
  holds: Set<() => void>;
  /** Media uploads received so far. */
  mediaUploads: number;
}

/** Answers a Graph error, with the header the Graph API adds to token errors. */
export function sendError(reply: FastifyReply, error: GraphError): FastifyReply {
  if (error.body.error.code === 190) {
    reply.header(
      'www-authenticate',
      'OAuth "Facebook Platform" "invalid_token" "Invalid OAuth access token"',
    );
  }
  return reply.code(error.status).send(error.body);
}
