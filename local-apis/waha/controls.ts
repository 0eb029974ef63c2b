// What happens on the phone side, which WAHA's API cannot cause: a person scans the QR, the
// device is unlinked, a number writes to the session, WhatsApp restricts the account. Tests call
// these functions in process; people call the same under `/_local/…` (no API key), where the
// records are readable too.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DoubleContext } from './context.ts';
import { digitsOf, lidOf, messageId, newIncomingId, toChatId } from './ids.ts';
import { sessionInfo } from './session-routes.ts';
import type { LocalSession } from './sessions.ts';

/** A control that could not be done: 404 for an unknown session, 409 for a wrong state. */
export class ControlError extends Error {
  constructor(
    readonly status: 404 | 409 | 400,
    message: string,
  ) {
    super(message);
  }
}

function sessionOf(ctx: DoubleContext, name: string): LocalSession {
  const session = ctx.sessions.get(name);
  if (!session) throw new ControlError(404, `No session '${name}'`);
  return session;
}

/** A phone number for a session that was paired without one: 62811 and eight digits of its name. */
function phoneFor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 100_000_000;
  return `62811${String(hash).padStart(8, '0')}`;
}

/** The phone `phone` scans the session's QR: WORKING as that account. */
export function pair(ctx: DoubleContext, name: string, phone?: string, pushName?: string) {
  const session = sessionOf(ctx, name);
  const digits = digitsOf(phone ?? phoneFor(name));
  if (!toChatId(digits)) throw new ControlError(400, `Not a phone number: ${phone}`);
  const problem = ctx.sessions.pair(session, {
    id: `${digits}@c.us`,
    pushName: pushName ?? `Sebar ${digits.slice(-4)}`,
  });
  if (problem) throw new ControlError(409, problem);
  return session;
}

/** The device is unlinked from the phone: FAILED, and a new QR is needed after a restart. */
export function drop(ctx: DoubleContext, name: string) {
  const session = sessionOf(ctx, name);
  const problem = ctx.sessions.drop(session);
  if (problem) throw new ControlError(409, problem);
  return session;
}

/**
 * WhatsApp refuses the session's sends with `code` (463 or 475) after `afterSends` more sends go
 * through, while the session stays WORKING; `code` null lifts it.
 */
export function restrict(ctx: DoubleContext, name: string, code: number | null, afterSends = 0) {
  const session = sessionOf(ctx, name);
  session.restriction = code === null ? null : { code, afterSends };
  return session;
}

/**
 * How the event names the person who writes: by their number, by their hidden id (`lid`: WAHA
 * tells the number for it), or by a hidden id whose number WAHA does not know (`hidden`).
 */
export type SenderForm = 'number' | 'lid' | 'hidden';

/** The number `from` writes `body` to the session: a `message` event (and `message.any`). */
export function incoming(
  ctx: DoubleContext,
  name: string,
  from: string,
  body: string,
  as: SenderForm = 'number',
) {
  const session = sessionOf(ctx, name);
  if (session.status !== 'WORKING') {
    throw new ControlError(409, `Session '${name}' is ${session.status}, not WORKING`);
  }
  const person = toChatId(digitsOf(from));
  if (!person) throw new ControlError(400, `Not a phone number: ${from}`);
  let chatId = person;
  if (as !== 'number') {
    chatId = lidOf(person);
    if (as === 'lid' || !ctx.lids.get(chatId)) ctx.lids.set(chatId, as === 'lid' ? person : null);
  }
  const id = messageId(false, chatId, newIncomingId());
  const at = Date.now();
  // The message as GOWS gives it (toWAMessage); `to` is the session's own number, as in the docs.
  const payload = {
    id,
    timestamp: Math.floor(at / 1000),
    from: chatId,
    fromMe: false,
    source: 'app',
    body,
    to: session.account?.id ?? null,
    participant: null,
    hasMedia: false,
    media: null,
    ack: 2,
    ackName: 'DEVICE',
    location: null,
    vCards: [],
    replyTo: null,
    _data: {
      Info: { Chat: chatId, IsFromMe: false, IsGroup: false },
      Message: { conversation: body },
    },
  };
  ctx.received.push({ session: name, from: chatId, body, id, at });
  ctx.sessions.emit(session, 'message', payload);
  ctx.sessions.emit(session, 'message.any', payload);
  return { id };
}

type Control = FastifyRequest<{ Params: { name: string }; Body: Record<string, unknown> | null }>;
type Listing = FastifyRequest<{ Querystring: { session?: string; chatId?: string } }>;

/** Runs a control and answers what it returns, or its error as `{error}`. */
function answer(reply: FastifyReply, run: () => unknown) {
  try {
    return reply.send(run());
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    return reply.code(error.status).send({ error: error.message });
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function registerControlRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  app.post('/_local/sessions/:name/pair', (request: Control, reply) =>
    answer(reply, () => {
      const body = request.body ?? {};
      return sessionInfo(pair(ctx, request.params.name, text(body.phone), text(body.pushName)));
    }),
  );
  app.post('/_local/sessions/:name/drop', (request: Control, reply) =>
    answer(reply, () => sessionInfo(drop(ctx, request.params.name))),
  );
  app.post('/_local/sessions/:name/incoming', (request: Control, reply) =>
    answer(reply, () => {
      const body = request.body ?? {};
      const as = text(body.as) ?? 'number';
      if (!['number', 'lid', 'hidden'].includes(as)) {
        throw new ControlError(400, 'as must be number, lid or hidden');
      }
      const from = text(body.from) ?? '';
      return incoming(ctx, request.params.name, from, text(body.body) ?? '', as as SenderForm);
    }),
  );
  app.post('/_local/sessions/:name/restrict', (request: Control, reply) =>
    answer(reply, () => {
      const body = request.body ?? {};
      const code = Number(body.code);
      if (code !== 463 && code !== 475) throw new ControlError(400, 'code must be 463 or 475');
      const afterSends = Number(body.afterSends ?? 0);
      return { restriction: restrict(ctx, request.params.name, code, afterSends).restriction };
    }),
  );
  app.delete('/_local/sessions/:name/restrict', (request: Control, reply) =>
    answer(reply, () => ({ restriction: restrict(ctx, request.params.name, null).restriction })),
  );

  const matches = (request: Listing) => (record: { session: string; chatId?: string }) =>
    (!request.query.session || record.session === request.query.session) &&
    (!request.query.chatId || record.chatId === toChatId(digitsOf(request.query.chatId)));
  app.get('/_local/sends', (request: Listing) => ctx.sends.filter(matches(request)));
  app.get('/_local/presence', (request: Listing) => ctx.presence.filter(matches(request)));
  app.get('/_local/received', (request: Listing) =>
    ctx.received.filter(
      (record) => !request.query.session || record.session === request.query.session,
    ),
  );
  app.get('/_local/webhooks', () =>
    ctx.webhooks.deliveries.map(({ envelope: _envelope, ...delivery }) => delivery),
  );
}
