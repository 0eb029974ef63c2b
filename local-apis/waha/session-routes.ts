// The sessions API (`/api/sessions…`), the pairing QR (`/api/{session}/auth/qr`) and
// `/api/version`, answering as WAHA's controllers do: POSTs answer 201 with the session, a
// missing session 404, a name taken 422 (src/api/sessions.controller.ts, auth.controller.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isError, sendError, type DoubleContext } from './context.ts';
import { httpError } from './errors.ts';
import { ulid } from './ids.ts';
import {
  ENVIRONMENT,
  SessionCreateRequest,
  SessionUpdateRequest,
  validationMessages,
} from './protocol.ts';
import { qrPng } from './qr.ts';
import type { LocalSession } from './sessions.ts';

type Named = FastifyRequest<{ Params: { name: string } }>;

/** A session as `GET /api/sessions` lists it (SessionInfo). */
export function sessionInfo(session: LocalSession) {
  return {
    name: session.name,
    status: session.status,
    config: session.config,
    me: session.account,
  };
}

export function registerSessionRoutes(app: FastifyInstance, ctx: DoubleContext): void {
  sessionReads(app, ctx.sessions);
  sessionChanges(app, ctx.sessions);
  pairingQr(app, ctx);
}

type Book = DoubleContext['sessions'];

/** Runs `action` on an existing session and answers it, or answers 404. */
const withSession =
  (book: Book, code: number, action: (session: LocalSession) => void) =>
  (request: Named, reply: FastifyReply) => {
    const session = book.get(request.params.name);
    if (!session) return sendError(reply, httpError(404, 'Session not found'));
    action(session);
    return reply.code(code).send(sessionInfo(session));
  };

/** The version, the sessions, one session and its account. */
function sessionReads(app: FastifyInstance, book: Book) {
  app.get('/api/version', () => ENVIRONMENT);

  app.get('/api/sessions', (request: FastifyRequest<{ Querystring: { all?: string } }>) => {
    const all = request.query.all === 'true' || request.query.all === '1';
    return book
      .all()
      .filter((session) => all || session.status !== 'STOPPED')
      .map(sessionInfo);
  });

  app.get('/api/sessions/:name', (request: Named, reply) => {
    const session = book.get(request.params.name);
    if (!session) return sendError(reply, httpError(404, 'Session not found'));
    return { ...sessionInfo(session), engine: { engine: ENVIRONMENT.engine } };
  });

  app.get('/api/sessions/:name/me', (request: Named, reply) => {
    const session = book.get(request.params.name);
    if (!session) return sendError(reply, httpError(404, 'Session not found'));
    return reply.send(session.account);
  });
}

/** Creating, updating, starting, stopping, signing out, restarting and deleting a session. */
function sessionChanges(app: FastifyInstance, book: Book) {
  app.post('/api/sessions', (request, reply) => {
    const parsed = SessionCreateRequest.safeParse(request.body ?? {});
    if (!parsed.success) {
      return sendError(reply, httpError(400, validationMessages(parsed.error)));
    }
    // WAHA names a session itself when the request does not.
    const name = parsed.data.name ?? `session_${ulid().toLowerCase()}`;
    const session = book.create(name, parsed.data.config ?? {});
    if (!session) {
      return sendError(
        reply,
        httpError(422, `Session '${name}' already exists. Use PUT to update it.`),
      );
    }
    // The documented default of `start` is true.
    if (parsed.data.start ?? true) book.start(session);
    return reply.code(201).send(sessionInfo(session));
  });

  app.put('/api/sessions/:name', (request: Named, reply) => {
    const parsed = SessionUpdateRequest.safeParse(request.body ?? {});
    if (!parsed.success) {
      return sendError(reply, httpError(400, validationMessages(parsed.error)));
    }
    return withSession(book, 200, (session) => book.update(session, parsed.data.config ?? {}))(
      request,
      reply,
    );
  });

  app.post(
    '/api/sessions/:name/start',
    withSession(book, 201, (session) => book.start(session)),
  );
  app.post(
    '/api/sessions/:name/stop',
    withSession(book, 201, (session) => book.stop(session)),
  );
  app.post(
    '/api/sessions/:name/logout',
    withSession(book, 201, (session) => book.logout(session)),
  );
  app.post(
    '/api/sessions/:name/restart',
    withSession(book, 201, (session) => book.restart(session)),
  );

  // Deleting is idempotent in WAHA: an unknown session answers 200 too.
  app.delete('/api/sessions/:name', (request: Named, reply) => {
    const session = book.get(request.params.name);
    if (session) book.delete(session);
    return reply.code(200).send();
  });
}

/** The pairing QR, once the session waits for a scan. */
function pairingQr(app: FastifyInstance, ctx: DoubleContext) {
  const book = ctx.sessions;
  app.get(
    '/api/:name/auth/qr',
    async (
      request: FastifyRequest<{ Params: { name: string }; Querystring: { format?: string } }>,
      reply,
    ) => {
      const found = await book.waitFor(
        request.params.name,
        ['SCAN_QR_CODE'],
        ctx.options.statusWaitMs,
      );
      if (isError(found)) return sendError(reply, found);
      const value = found.qr ?? '';
      if (request.query.format === 'raw') return { value };
      const png = await qrPng(value);
      // Accept: application/json asks for the image as base64 (BufferResponseInterceptor).
      if (request.headers.accept === 'application/json') {
        return { mimetype: 'image/png', data: png.toString('base64') };
      }
      return reply.type('image/png').send(png);
    },
  );
}
