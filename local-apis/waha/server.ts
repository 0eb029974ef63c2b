// The local WAHA: a look-alike of WAHA's HTTP API (WhatsApp HTTP API, a self-hosted WhatsApp Web
// gateway) on 127.0.0.1 that tests and people point Sebar at. It checks the API key, runs sessions
// that pair when told to, answers sends as WAHA does, posts signed events with scripted acks, and
// records everything for tests to read.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { RequestLog, type RecordedRequest } from '#local-apis/shared/request-log.ts';
import {
  DEFAULT_OPTIONS,
  sendError,
  type DoubleContext,
  type LocalWahaOptions,
  type RecordedCheck,
  type RecordedIncoming,
  type RecordedPresence,
  type RecordedSend,
} from './context.ts';
import {
  drop,
  incoming,
  pair,
  registerControlRoutes,
  restrict,
  type SenderForm,
} from './controls.ts';
import { httpError, unauthorized } from './errors.ts';
import { toChatId } from './ids.ts';
import { OutcomeBook } from './outcomes.ts';
import { registerSendRoutes } from './send-routes.ts';
import { registerSessionRoutes } from './session-routes.ts';
import { SessionBook, type LocalSession } from './sessions.ts';
import { WebhookPoster, type WebhookDelivery } from './webhooks.ts';

export type {
  LocalWahaOptions,
  RecordedCheck,
  RecordedFile,
  RecordedIncoming,
  RecordedPresence,
  RecordedSend,
} from './context.ts';
export type { RecordedRequest } from '#local-apis/shared/request-log.ts';
export type { LocalSession, MeInfo } from './sessions.ts';
export type { WebhookDelivery, WebhookEnvelope } from './webhooks.ts';

/** The running double, as tests drive and read it. */
export interface LocalWaha {
  /** `http://127.0.0.1:{port}`: Sebar's base_url. */
  url: string;
  port: number;
  options: LocalWahaOptions;
  /** Accepted sends, in order. */
  sends: RecordedSend[];
  /** startTyping, stopTyping and sendSeen calls, in order. */
  presence: RecordedPresence[];
  /** check-exists calls, in order. */
  checks: RecordedCheck[];
  /** Messages numbers wrote to sessions through `incoming`. */
  received: RecordedIncoming[];
  /** Every HTTP request received, with its parsed body. */
  requests: RecordedRequest[];
  /** Every webhook attempt, with the receiver's answer. */
  webhooks: WebhookDelivery[];
  /** A session by name, as the double holds it (status, config, account, restriction). */
  session(name: string): LocalSession | undefined;
  /** Accepted sends to a number (digits or chat id), from any session. */
  sentTo(number: string): RecordedSend[];
  /** A phone scans the session's QR: WORKING as `phone` (made up from the name when absent). */
  pair(session: string, phone?: string, pushName?: string): void;
  /** The device is unlinked from the phone: FAILED. */
  drop(session: string): void;
  /** 463 or 475 on every send of the session after `afterSends` more; null lifts it. */
  restrict(session: string, code: 463 | 475 | null, afterSends?: number): void;
  /** The number `from` writes `body` to the session (a `message` event), named `as`. */
  incoming(session: string, from: string, body: string, as?: SenderForm): { id: string };
  /** Resolves once every scheduled event was posted or given up. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalWaha(
  overrides: Partial<LocalWahaOptions> = {},
): Promise<LocalWaha> {
  const options: LocalWahaOptions = { ...DEFAULT_OPTIONS, ...overrides };
  const webhooks = new WebhookPoster(options.fetchTimeoutMs);
  const ctx: DoubleContext = {
    options,
    sessions: new SessionBook(options, webhooks),
    outcomes: new OutcomeBook(options.outcomes),
    webhooks,
    sends: [],
    presence: [],
    checks: [],
    received: [],
    lids: new Map(),
    log: new RequestLog(),
    holds: new Set(),
  };
  const app = buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    options,
    sends: ctx.sends,
    presence: ctx.presence,
    checks: ctx.checks,
    received: ctx.received,
    requests: ctx.log.requests,
    webhooks: ctx.webhooks.deliveries,
    session: (name) => ctx.sessions.get(name),
    sentTo: (number) => {
      const chatId = toChatId(number.replace(/[^0-9@.a-z]/g, ''));
      return ctx.sends.filter((send) => send.chatId === chatId);
    },
    pair: (session, phone, pushName) => void pair(ctx, session, phone, pushName),
    drop: (session) => void drop(ctx, session),
    restrict: (session, code, afterSends) => void restrict(ctx, session, code, afterSends),
    incoming: (session, from, body, as) => incoming(ctx, session, from, body, as),
    settled: () => ctx.webhooks.settled(),
    close: async () => {
      ctx.sessions.close();
      ctx.webhooks.close();
      for (const release of [...ctx.holds]) release();
      await app.close();
    },
  };
}

function buildApp(ctx: DoubleContext): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 * 1024 });
  ctx.log.attach(app);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/') && !hasKey(ctx, request)) {
      return sendError(reply, unauthorized());
    }
  });
  // Fastify's own refusals (a body that is not JSON, too large) in NestJS's shape.
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode ?? 500;
    return sendError(reply, httpError(status, error.message));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, httpError(404, `Cannot ${request.method} ${request.url.split('?')[0]}`)),
  );
  registerSessionRoutes(app, ctx);
  registerSendRoutes(app, ctx);
  registerControlRoutes(app, ctx);
  return app;
}

/** WAHA's key check: `X-Api-Key`, or the `x-api-key` query parameter. */
function hasKey(ctx: DoubleContext, request: FastifyRequest): boolean {
  const header = request.headers['x-api-key'];
  const query = (request.query as Record<string, string | undefined>)['x-api-key'];
  return (typeof header === 'string' ? header : query) === ctx.options.apiKey;
}
