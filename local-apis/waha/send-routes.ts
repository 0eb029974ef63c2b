// Sending and what goes with it: `POST /api/sendText`, `/api/sendImage`, `/api/startTyping`,
// `/api/stopTyping`, `/api/sendSeen`, `GET /api/contacts/check-exists` and
// `GET /api/{session}/lids/{lid}`. Each needs a WORKING session (WAHA waits for it, then answers
// 404 or 422); a send applies the session's restriction and the scripted outcome, is recorded,
// answered as GOWS answers (201, `{id, _data}`) and acked.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { hold } from '#local-apis/shared/hold.ts';
import { ackPayload, ackSequence } from './acks.ts';
import {
  isError,
  sendError,
  type DoubleContext,
  type RecordedFile,
  type RecordedSend,
} from './context.ts';
import {
  engineError,
  httpError,
  whatsappError,
  type RequestEcho,
  type WahaError,
} from './errors.ts';
import { digitsOf, messageId, newOutgoingId, toChatId } from './ids.ts';
import { ChatRequest, SendImageRequest, SendTextRequest, validationMessages } from './protocol.ts';
import type { LocalSession } from './sessions.ts';

/** What a send route has worked out before the common part: the recorded fields and the proto. */
interface SendDraft {
  kind: RecordedSend['kind'];
  fields: Partial<RecordedSend>;
  /** The WhatsApp message as GOWS returns it in `_data`. */
  message: Record<string, unknown>;
}

export function registerSendRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  app.post('/api/sendText', async (request, reply) => {
    const parsed = SendTextRequest.safeParse(request.body);
    if (!parsed.success) return sendError(reply, httpError(400, validationMessages(parsed.error)));
    const body = parsed.data;
    const draft: SendDraft = {
      kind: 'text',
      fields: { text: body.text, ...(body.reply_to ? { reply_to: body.reply_to } : {}) },
      message: { extendedTextMessage: { text: body.text } },
    };
    return send(ctx, request, reply, body.session, body.chatId, async () => draft);
  });

  app.post('/api/sendImage', async (request, reply) => {
    const parsed = SendImageRequest.safeParse(request.body);
    if (!parsed.success) return sendError(reply, httpError(400, validationMessages(parsed.error)));
    const body = parsed.data;
    return send(ctx, request, reply, body.session, body.chatId, async () => {
      const file = await loadFile(ctx, body.file);
      if (typeof file === 'string') return engineError(file, echo(request));
      const caption = body.caption ?? '';
      return {
        kind: 'image',
        fields: { file, caption, ...(body.reply_to ? { reply_to: body.reply_to } : {}) },
        message: {
          imageMessage: {
            caption,
            mimetype: body.file.mimetype ?? file.detectedMime ?? 'image/jpeg',
            fileLength: String(file.size),
            fileSha256: Buffer.from(file.sha256, 'hex').toString('base64'),
          },
        },
      };
    });
  });

  for (const action of ['startTyping', 'stopTyping', 'sendSeen'] as const) {
    app.post(`/api/${action}`, async (request, reply) => {
      const parsed = ChatRequest.safeParse(request.body);
      if (!parsed.success) {
        return sendError(reply, httpError(400, validationMessages(parsed.error)));
      }
      const session = await ctx.sessions.waitFor(
        parsed.data.session,
        ['WORKING'],
        ctx.options.statusWaitMs,
      );
      if (isError(session)) return sendError(reply, session);
      const chatId = toChatId(parsed.data.chatId);
      if (!chatId) return sendError(reply, badChatId(parsed.data.chatId));
      ctx.presence.push({ session: session.name, chatId, action, at: Date.now() });
      // Typing answers `{result: true}`; GOWS's sendSeen returns nothing.
      return reply.code(201).send(action === 'sendSeen' ? undefined : { result: true });
    });
  }

  contactRoutes(app, ctx);
}

/** What WAHA tells of people: whether a number is on WhatsApp, and the number behind a lid. */
function contactRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  app.get(
    '/api/contacts/check-exists',
    async (
      request: FastifyRequest<{ Querystring: { phone?: string; session?: string } }>,
      reply,
    ) => {
      const { phone = '', session: name = 'default' } = request.query;
      const session = await ctx.sessions.waitFor(name, ['WORKING'], ctx.options.statusWaitMs);
      if (isError(session)) return sendError(reply, session);
      const chatId = toChatId(phone.replace(/^\+/, ''));
      if (!chatId) return sendError(reply, httpError(400, [`phone: not a phone number: ${phone}`]));
      const numberExists = ctx.outcomes.exists(chatId);
      ctx.checks.push({ session: name, phone: digitsOf(phone), numberExists, at: Date.now() });
      return { numberExists, chatId: numberExists ? chatId : null };
    },
  );

  // The number behind a hidden id (Contacts, "Get Phone Number by LID"): `{lid, pn}`, `pn` null
  // when the session does not know it. The id may come with or without its `@lid`.
  app.get(
    '/api/:session/lids/:lid',
    async (request: FastifyRequest<{ Params: { session: string; lid: string } }>, reply) => {
      const session = await ctx.sessions.waitFor(
        request.params.session,
        ['WORKING'],
        ctx.options.statusWaitMs,
      );
      if (isError(session)) return sendError(reply, session);
      const lid = request.params.lid.endsWith('@lid')
        ? request.params.lid
        : `${request.params.lid}@lid`;
      return { lid, pn: ctx.lids.get(lid) ?? null };
    },
  );
}

/**
 * The common part of a send: a WORKING session, a person's chat id, the session's restriction and
 * the scripted outcome, then the draft (an image is fetched here), the record, acks and answer.
 */
async function send(
  ctx: DoubleContext,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionName: string,
  rawChatId: string,
  draft: () => Promise<SendDraft | WahaError>,
) {
  const session = await ctx.sessions.waitFor(sessionName, ['WORKING'], ctx.options.statusWaitMs);
  if (isError(session)) return sendError(reply, session);
  const chatId = toChatId(rawChatId);
  if (!chatId) return sendError(reply, badChatId(rawChatId));
  const restriction = session.restriction;
  if (restriction && restriction.afterSends <= 0) {
    return sendError(reply, whatsappError(restriction.code, echo(request)));
  }
  const outcome = ctx.outcomes.forSend(chatId);
  if (outcome.kind === 'reject')
    return sendError(reply, whatsappError(outcome.code, echo(request)));
  const made = await draft();
  if (isError(made)) return sendError(reply, made);

  if (restriction) restriction.afterSends -= 1;
  const record: RecordedSend = {
    session: session.name,
    chatId,
    kind: made.kind,
    ...made.fields,
    id: messageId(true, chatId, newOutgoingId()),
    outcome,
    at: Date.now(),
  };
  ctx.sends.push(record);
  scheduleAcks(ctx, session, record, made.message);

  if (outcome.kind === 'lost_answer') {
    // The send happened; only its answer is lost, as when a connection drops mid-request.
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  if (outcome.kind === 'bad_gateway') {
    // The send happened; a proxy in front of WAHA lost its answer and says so in HTML.
    return reply.code(502).type('text/html').send(BAD_GATEWAY_PAGE);
  }
  if (outcome.kind === 'timeout') await hold(ctx.holds, outcome.ms ?? ctx.options.timeoutMs);
  return reply.code(201).send(sendAnswer(ctx, record, made.message));
}

const BAD_GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';

/**
 * What a send answers: GOWS's `{id, _data}`, or NOWEB's Baileys message, whose `key` names the
 * message (`remoteJid` in the `@s.whatsapp.net` form; WAHA's id is `<fromMe>_<chat>@c.us_<id>`).
 */
function sendAnswer(ctx: DoubleContext, send: RecordedSend, message: Record<string, unknown>) {
  if (ctx.options.sendAnswer === 'GOWS') return { id: send.id, _data: message };
  const [fromMe, chatId, id] = send.id.split('_');
  return {
    key: {
      remoteJid: chatId!.replace(/@c\.us$/, '@s.whatsapp.net'),
      fromMe: fromMe === 'true',
      id,
    },
    message,
    messageTimestamp: String(Math.floor(send.at / 1000)),
    status: 'PENDING',
  };
}

/** The message itself on `message.any`, then its acks, `ackDelayMs` apart (twice for duplicate). */
function scheduleAcks(
  ctx: DoubleContext,
  session: LocalSession,
  send: RecordedSend,
  message: Record<string, unknown>,
): void {
  ctx.sessions.emit(session, 'message.any', {
    id: send.id,
    timestamp: Math.floor(send.at / 1000),
    from: send.chatId,
    fromMe: true,
    source: 'api',
    body: send.text ?? send.caption ?? '',
    to: null,
    participant: null,
    hasMedia: send.kind === 'image',
    media: null,
    // GOWS marks its own messages as taken by the server when it reports them.
    ack: 1,
    ackName: 'SERVER',
    replyTo: null,
    _data: { Message: message },
  });
  const copies = send.outcome.kind === 'duplicate' ? 2 : 1;
  ackSequence(send.outcome).forEach((ack, index) => {
    const delay = ctx.options.ackDelayMs * (index + 1);
    for (let copy = 0; copy < copies; copy += 1) {
      ctx.sessions.emit(session, 'message.ack', ackPayload(send.id, send.chatId, ack), delay);
    }
  });
}

/**
 * The image of a sendImage, fetched from `url` or decoded from base64 `data`, so that a send of
 * something that is not there fails as it would in WAHA (a 500 with the reason).
 */
async function loadFile(
  ctx: DoubleContext,
  file: SendImageRequest['file'],
): Promise<RecordedFile | string> {
  let bytes: Buffer;
  if (file.url !== undefined) {
    try {
      const answer = await fetch(file.url, {
        signal: AbortSignal.timeout(ctx.options.fetchTimeoutMs),
      });
      if (!answer.ok) return `Request failed with status code ${answer.status}`;
      bytes = Buffer.from(await answer.arrayBuffer());
    } catch (error) {
      return `Failed to fetch ${file.url}: ${(error as Error).message}`;
    }
  } else {
    const data = (file.data ?? '').replace(/^data:[^,]*,/, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return 'file.data is not base64';
    bytes = Buffer.from(data, 'base64');
  }
  if (bytes.length === 0) return 'The file is empty';
  const detected = await fileTypeFromBuffer(bytes);
  return {
    ...(file.mimetype ? { mimetype: file.mimetype } : {}),
    ...(file.filename ? { filename: file.filename } : {}),
    source: file.url !== undefined ? 'url' : 'data',
    ...(file.url !== undefined ? { url: file.url } : {}),
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(detected ? { detectedMime: detected.mime } : {}),
  };
}

/**
 * A chat id that is no person's: WAHA passes it to the engine, which fails; the double refuses
 * it up front with a validation error, a choice of its own (decision 209).
 */
function badChatId(chatId: string) {
  return httpError(400, [`chatId: not a phone number or <number>@c.us chat id: ${chatId}`]);
}

function echo(request: FastifyRequest): RequestEcho {
  return {
    path: request.url,
    method: request.method,
    body: request.body,
    query: request.query,
  };
}
