// The options of the double and the state its routes share: the sessions, what was sent, typed,
// checked and received, the outcome book and the webhook poster.
import type { FastifyReply } from 'fastify';
import type { RequestLog } from '#local-apis/shared/request-log.ts';
import type { WahaError } from './errors.ts';
import type { OutcomeBook, Outcome, Outcomes } from './outcomes.ts';
import type { SessionBook } from './sessions.ts';
import type { WebhookPoster } from './webhooks.ts';

export interface LocalWahaOptions {
  /** 0 picks a free port. */
  port: number;
  /** The key every `/api` call carries in `X-Api-Key` (or the `x-api-key` query parameter). */
  apiKey: string;
  /** Outcomes by recipient: a map by number or a function; every send is read when absent. */
  outcomes?: Outcomes;
  /** How long a started session stays STARTING before it asks for a QR (or works, if paired). */
  startingMs: number;
  /** How often a session waiting for a scan gets a new QR (a new SCAN_QR_CODE); 0: never. */
  qrRefreshMs: number;
  /** How long a call waits for the status it needs before answering 422, as WAHA waits 5 s. */
  statusWaitMs: number;
  /** The gap between a send's acks. */
  ackDelayMs: number;
  /** How long a `timeout` outcome holds its answer when the outcome names no time. */
  timeoutMs: number;
  /** How long fetching `file.url` of an image or posting one webhook may take. */
  fetchTimeoutMs: number;
  /**
   * Whose answer to a send the double gives: GOWS's `{id, _data}`, or NOWEB's Baileys message,
   * which names the message by its `key` only. Everything else stays GOWS's.
   */
  sendAnswer: 'GOWS' | 'NOWEB';
}

export const DEFAULT_OPTIONS: LocalWahaOptions = {
  port: 0,
  apiKey: 'local-waha-key',
  startingMs: 50,
  qrRefreshMs: 0,
  statusWaitMs: 5000,
  ackDelayMs: 20,
  timeoutMs: 30_000,
  fetchTimeoutMs: 10_000,
  sendAnswer: 'GOWS',
};

/** The image of a sendImage, as the double fetched or decoded it. */
export interface RecordedFile {
  mimetype?: string;
  filename?: string;
  /** Where the bytes came from. */
  source: 'url' | 'data';
  url?: string;
  size: number;
  sha256: string;
  /** The type the bytes themselves say (file-type), when they say one. */
  detectedMime?: string;
}

/** An accepted send, as a test reads it. */
export interface RecordedSend {
  session: string;
  chatId: string;
  kind: 'text' | 'image';
  text?: string;
  caption?: string;
  file?: RecordedFile;
  reply_to?: string;
  /** WAHA's serialized id, `true_<chatId>_3EB0…`, as the answer and the acks carry it. */
  id: string;
  outcome: Outcome;
  at: number;
}

/** startTyping, stopTyping and sendSeen calls. */
export interface RecordedPresence {
  session: string;
  chatId: string;
  action: 'startTyping' | 'stopTyping' | 'sendSeen';
  at: number;
}

/** A check-exists call and what it answered. */
export interface RecordedCheck {
  session: string;
  phone: string;
  numberExists: boolean;
  at: number;
}

/** A message a number "sent" to a session through the control. */
export interface RecordedIncoming {
  session: string;
  from: string;
  body: string;
  id: string;
  at: number;
}

export interface DoubleContext {
  options: LocalWahaOptions;
  sessions: SessionBook;
  outcomes: OutcomeBook;
  webhooks: WebhookPoster;
  sends: RecordedSend[];
  presence: RecordedPresence[];
  checks: RecordedCheck[];
  received: RecordedIncoming[];
  /**
   * The hidden ids (`…@lid`) people wrote from, with the chat id the double tells for each
   * (`GET /api/{session}/lids/{lid}`), or null for a person whose number it does not know.
   */
  lids: Map<string, string | null>;
  /** Every HTTP request received, with its parsed body. */
  log: RequestLog;
  /** Answers held by `timeout` outcomes, released on close. */
  holds: Set<() => void>;
}

export function sendError(reply: FastifyReply, error: WahaError): FastifyReply {
  return reply.code(error.status).send(error.body);
}

/** Whether a value is an error answer rather than what was asked for. */
export function isError(value: unknown): value is WahaError {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}
