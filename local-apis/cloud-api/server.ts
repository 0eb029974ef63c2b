// The local WhatsApp Cloud API: a Graph API look-alike on 127.0.0.1 that tests and people
// without a Meta account point Sebar at. It checks the token, validates sends like Meta, answers
// Graph errors, posts signed status webhooks and records everything for tests to read.
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { RequestLog, type RecordedRequest } from '#local-apis/shared/request-log.ts';
import {
  DEFAULT_OPTIONS,
  sendError,
  type DoubleContext,
  type LocalCloudApiOptions,
  type RecordedSend,
  type StoredMedia,
} from './context.ts';
import { graphError } from './errors.ts';
import { incomingWebhook, type IncomingContent } from './incoming.ts';
import { SendLimits } from './limits.ts';
import { OutcomeBook } from './outcomes.ts';
import { waId } from './protocol.ts';
import {
  handleMediaDownload,
  handleMediaUpload,
  handleNode,
  handlePhoneNumbers,
  handleTemplates,
} from './read-routes.ts';
import { handleSend } from './send-route.ts';
import {
  DEFAULT_TEMPLATES,
  TEMPLATE_EVENTS,
  templateStatusWebhook,
  type TemplateEvent,
} from './templates.ts';
import { verifyWebhook, WebhookSender, type WebhookDelivery } from './webhooks.ts';

export type { LocalCloudApiOptions, RecordedSend, StoredMedia } from './context.ts';
export type { RecordedRequest } from '#local-apis/shared/request-log.ts';
export type { WebhookDelivery } from './webhooks.ts';
export type { IncomingContent } from './incoming.ts';

/** The running double, as tests drive and read it. */
export interface LocalCloudApi {
  /** `http://127.0.0.1:{port}`: Sebar's graph_url. */
  url: string;
  port: number;
  options: LocalCloudApiOptions;
  /** Accepted sends, in order. */
  sends: RecordedSend[];
  /** Every HTTP request received, with its parsed body. */
  requests: RecordedRequest[];
  /** Every webhook attempt, with the receiver's answer. */
  webhooks: WebhookDelivery[];
  media: Map<string, StoredMedia>;
  /** How many sends to this number were accepted. */
  sentTo(number: string): number;
  /** Resolves once every scheduled webhook was taken or given up. */
  settled(): Promise<void>;
  /**
   * A WhatsApp user at `from` sends the business a message: its webhook is posted now (retried
   * like the others; `settled()` waits for it). Answers the body posted.
   */
  receive(from: string, content: IncomingContent): unknown;
  /**
   * Meta changes a template's status: the template list answers it from now on, and its template
   * status webhook is posted (retried like the others). Answers the body posted.
   */
  changeTemplate(id: string, event: TemplateEvent): unknown;
  /** The GET handshake against the webhook URL: true when the challenge came back. */
  verifyWebhook(url?: string): Promise<boolean>;
  close(): Promise<void>;
}

const VERSION = /^v\d+\.\d+$/;

export async function startLocalCloudApi(
  overrides: Partial<LocalCloudApiOptions> = {},
): Promise<LocalCloudApi> {
  const options: LocalCloudApiOptions = {
    templates: DEFAULT_TEMPLATES,
    ...DEFAULT_OPTIONS,
    ...overrides,
  };
  let baseUrl = '';
  const ctx: DoubleContext = {
    options,
    baseUrl: () => baseUrl,
    sends: [],
    log: new RequestLog(),
    media: new Map(),
    limits: new SendLimits(options),
    outcomes: new OutcomeBook(options.outcomes),
    webhooks: new WebhookSender({
      ...(options.webhookUrl === undefined ? {} : { url: options.webhookUrl }),
      appSecret: options.appSecret,
      retryMs: options.webhookRetryMs,
      maxAttempts: options.webhookMaxAttempts,
      attemptTimeoutMs: 10_000,
    }),
    holds: new Set(),
    mediaUploads: 0,
  };
  const app = buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    port,
    options,
    sends: ctx.sends,
    requests: ctx.log.requests,
    webhooks: ctx.webhooks.deliveries,
    media: ctx.media,
    sentTo: (number) => ctx.sends.filter((send) => send.to === waId(number)).length,
    settled: () => ctx.webhooks.settled(),
    receive: (from, content) => {
      const payload = incomingWebhook(options, from, content);
      ctx.webhooks.schedule(payload, 0);
      return payload;
    },
    changeTemplate: (id, event) => changeTemplate(ctx, id, event),
    verifyWebhook: (url) => verifyWebhook(url ?? options.webhookUrl ?? '', options.verifyToken),
    close: async () => {
      ctx.webhooks.close();
      for (const release of [...ctx.holds]) release();
      await app.close();
    },
  };
}

function buildApp(ctx: DoubleContext): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 10 * 1024 * 1024 });
  void app.register(fastifyMultipart, { limits: { fileSize: 100 * 1024 * 1024 } });
  ctx.log.attach(app);
  app.addHook('preHandler', async (request, reply) => {
    const problem = request.url.startsWith('/_local/') ? undefined : tokenProblem(ctx, request);
    if (problem) return sendError(reply, problem);
    const version = (request.params as { version?: string }).version;
    if (version !== undefined && !VERSION.test(version)) {
      return sendError(reply, graphError(100, `Unknown version: ${version}`));
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode ?? 500;
    const graph = status < 500 ? graphError(100, error.message) : graphError(131000, error.message);
    return sendError(reply, graph);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, graphError(100, `Unknown path components: ${request.url.split('?')[0]}`)),
  );
  app.get('/:version/:id', (request: Parameters<typeof handleNode>[1], reply) =>
    handleNode(ctx, request, reply),
  );
  app.get('/:version/:id/phone_numbers', (request: Parameters<typeof handleNode>[1], reply) =>
    handlePhoneNumbers(ctx, request, reply),
  );
  app.get(
    '/:version/:id/message_templates',
    (request: Parameters<typeof handleTemplates>[1], reply) => handleTemplates(ctx, request, reply),
  );
  app.post('/:version/:id/messages', (request: Parameters<typeof handleSend>[1], reply) =>
    handleSend(ctx, request, reply),
  );
  app.post('/:version/:id/media', (request: Parameters<typeof handleMediaUpload>[1], reply) =>
    handleMediaUpload(ctx, request, reply),
  );
  // The double's own control, for a person trying Sebar: Meta changes a template's status.
  app.post(
    '/_local/templates/:id/status',
    (request: FastifyRequest<{ Params: { id: string }; Body: { event?: string } }>, reply) => {
      const event = request.body?.event ?? '';
      if (!(event in TEMPLATE_EVENTS)) {
        return reply.status(400).send({ error: `event: one of ${Object.keys(TEMPLATE_EVENTS)}` });
      }
      if (!ctx.options.templates.some((t) => t.id === request.params.id)) {
        return reply.status(404).send({ error: `no template ${request.params.id}` });
      }
      return reply.send(changeTemplate(ctx, request.params.id, event as TemplateEvent));
    },
  );
  app.get('/media-download/:id', (request: Parameters<typeof handleMediaDownload>[1], reply) =>
    handleMediaDownload(ctx, request, reply),
  );
  return app;
}

/** Sets the template's status as `event` leaves it (in a new list: the fixtures stay as they are). */
function changeTemplate(ctx: DoubleContext, id: string, event: TemplateEvent): unknown {
  const template = ctx.options.templates.find((t) => t.id === id);
  if (!template) throw new Error(`no template ${id}`);
  const changed = { ...template, status: TEMPLATE_EVENTS[event] };
  ctx.options.templates = ctx.options.templates.map((t) => (t.id === id ? changed : t));
  const payload = templateStatusWebhook(ctx.options.businessAccountId, changed, event);
  ctx.webhooks.schedule(payload, 0);
  return payload;
}

/** The Graph token check: `Authorization: Bearer …` or the `access_token` query parameter. */
function tokenProblem(ctx: DoubleContext, request: FastifyRequest) {
  const header = request.headers.authorization;
  const query = (request.query as Record<string, string | undefined>).access_token;
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : query;
  if (token === ctx.options.accessToken) return undefined;
  if (!token) {
    return graphError(190, undefined, {
      message: 'An access token is required to request this resource.',
    });
  }
  return graphError(190);
}
