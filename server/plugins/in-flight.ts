// Expensive requests in flight per signed-in user: a route declaring `config.expensive` (blast
// creation, image uploads) is refused with 429 while its user already has `max` such requests
// being worked on, so one user's flood cannot take the database or the image encoder from others.
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
} from 'fastify';
import { currentUser } from './auth.ts';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counted against the user's bound on expensive requests in flight. */
    expensive?: true;
  }
}

/** How long a refusal waits before it is sent, and the Retry-After it names. */
const REFUSAL_DELAY_MS = 1000;

export const busyMessage = (max: number) =>
  `Terlalu banyak permintaan yang sedang diproses (maksimal ${max} sekaligus). Tunggu hingga selesai, lalu coba lagi.`;

/**
 * Must be registered after the auth guard (registerAuth), whose onRoute hook adds the check that
 * sets the user this bound counts by. A slot is taken before the body is read and given back as
 * soon as the answer is being sent (the work is done), whatever the answer; onResponse gives it
 * back too, for the rare answer that skips onSend. A client that hangs up does not free its slot
 * before the server has finished the work it started.
 */
export function registerInFlight(app: FastifyInstance, max: number): void {
  const counts = new Map<string, number>();
  const holders = new WeakMap<FastifyRequest, string>();

  const release = (request: FastifyRequest) => {
    const id = holders.get(request);
    if (id === undefined) return;
    holders.delete(request);
    const count = (counts.get(id) ?? 1) - 1;
    if (count > 0) counts.set(id, count);
    else counts.delete(id);
  };

  const enter: onRequestHookHandler = (request, reply, done) => {
    const id = currentUser(request).id;
    const count = counts.get(id) ?? 0;
    if (count >= max) {
      // Answered after the second it asks the client to wait: a client that sends again at once
      // gets one refusal a second per connection, not a flood of cheap refusals that would take
      // the server's time from everyone else.
      reply.header('retry-after', String(REFUSAL_DELAY_MS / 1000));
      setTimeout(() => done(new HttpError(429, busyMessage(max))), REFUSAL_DELAY_MS).unref();
      return;
    }
    counts.set(id, count + 1);
    holders.set(request, id);
    done();
  };
  const leaveOnSend: onSendHookHandler = (request, _reply, payload, done) => {
    release(request);
    done(null, payload);
  };
  const leaveOnResponse: onResponseHookHandler = (request, _reply, done) => {
    release(request);
    done();
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.expensive) return;
    route.onRequest = [route.onRequest ?? []].flat().concat(enter);
    route.onSend = [route.onSend ?? []].flat().concat(leaveOnSend);
    route.onResponse = [route.onResponse ?? []].flat().concat(leaveOnResponse);
  });
}
