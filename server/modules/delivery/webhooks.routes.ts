// Meta's calls to Sebar: the webhook handshake (GET) and signed status deliveries (POST); and the
// WhatsApp gateway's (WAHA's) signed events. All public: the verify token and the bodies'
// signatures are the credentials.
import { ErrorSchema } from '#common/auth.ts';
import { WAHA_WEBHOOK_PATH, WEBHOOK_PATH } from '#common/delivery.ts';
import { z } from '#common/zod.ts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '#server/app-context.ts';
import { HttpError } from '#server/plugins/errors.ts';
import { markWebhooksUp } from './outbox.ts';
import { WebhookIntake } from './webhook-intake.ts';
import {
  BAD_SIGNATURE,
  SIGNATURE_SHAPES,
  verifySubscription,
  webhookSignatures,
} from './webhooks.service.ts';

const tags = ['webhooks'];

const HandshakeSchema = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().optional(),
});

const ReceivedSchema = z.object({ received: z.literal(true) });

export function webhooksRoutes(app: App, { database, secrets }: AppContext) {
  const { db } = database;
  const intake = new WebhookIntake(database, 'whatsapp');
  const gatewayIntake = new WebhookIntake(database, 'waha');
  const signed = webhookSignatures(db, secrets);
  app.addHook('onReady', () => markWebhooksUp(database));
  app.get(
    WEBHOOK_PATH,
    {
      config: { access: 'public' },
      schema: {
        tags,
        querystring: HandshakeSchema,
        // The challenge, as plain text.
        response: { 200: z.string(), 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      const challenge = await verifySubscription(db, secrets, request.query);
      if (challenge === null) throw new HttpError(403, 'Verify token webhook tidak cocok');
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );
  // The signature is over the bytes as sent, so this scope keeps JSON bodies raw.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      WEBHOOK_PATH,
      // Meta's deliveries come in bursts from few addresses; unsigned ones are refused cheaply.
      // One delivery may be up to 3 MB (Meta's webhooks reference), over the app's 1 MB.
      {
        config: { access: 'public', rateLimit: false },
        onRequest: signatureShaped('x-hub-signature-256', SIGNATURE_SHAPES.meta),
        bodyLimit: 3 * 1024 * 1024,
        schema: { tags, response: { 200: ReceivedSchema, 401: ErrorSchema, 415: ErrorSchema } },
      },
      async (request) => {
        const raw = rawJson(request.body);
        const signature = request.headers['x-hub-signature-256'];
        if (!(await signed.byMeta(raw, [signature].flat()[0]))) {
          throw new HttpError(401, BAD_SIGNATURE);
        }
        parsedJson(raw);
        await intake.keep(raw);
        return { received: true as const };
      },
    );
    // WAHA's events: X-Webhook-Hmac, the hex HMAC-SHA512 of the body with the webhook secret.
    scope.post(
      WAHA_WEBHOOK_PATH,
      {
        config: { access: 'public', rateLimit: false },
        onRequest: signatureShaped('x-webhook-hmac', SIGNATURE_SHAPES.gateway),
        schema: { tags, response: { 200: ReceivedSchema, 401: ErrorSchema, 415: ErrorSchema } },
      },
      async (request) => {
        const raw = rawJson(request.body);
        const signature = [request.headers['x-webhook-hmac']].flat()[0];
        const algorithm = [request.headers['x-webhook-hmac-algorithm']].flat()[0];
        if (!(await signed.byGateway(raw, signature, algorithm))) {
          throw new HttpError(401, BAD_SIGNATURE);
        }
        parsedJson(raw);
        await gatewayIntake.keep(raw);
        return { received: true as const };
      },
    );
  });
}

/**
 * Refuses a delivery whose signature header is missing or cannot be one, before its body is read:
 * anyone may post here, and reading megabytes only to refuse them would cost every other request.
 */
function signatureShaped(header: string, shape: RegExp) {
  return async (request: FastifyRequest) => {
    const value = [request.headers[header]].flat()[0];
    if (!value || !shape.test(value)) throw new HttpError(401, BAD_SIGNATURE);
  };
}

/** The body as sent: only JSON is parsed to bytes here; another type (text/plain) is not theirs. */
function rawJson(body: unknown): Buffer {
  if (!Buffer.isBuffer(body)) throw new HttpError(415, 'Webhook harus berupa application/json');
  return body;
}

function parsedJson(raw: Buffer): void {
  try {
    JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Isi webhook harus berupa JSON yang valid');
  }
}
