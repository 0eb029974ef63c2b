// The server's log: Fastify's pino logger, with one access line per answered request.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * Fastify's logger options: pino at LOG_LEVEL ('silent' writes nothing). The request serializer
 * names the method and path only, so no header (the Authorization token) reaches a line.
 */
export const loggerOptions = (level: string): FastifyServerOptions['logger'] => ({
  level,
  serializers: { req: (request) => ({ method: request.method, url: request.url }) },
});

/**
 * One line per answered request, written as the answer ends: method, path, status, milliseconds
 * and the signed-in user's id. Fastify's own request lines (two per request, without the user)
 * are turned off where the app is built.
 */
export function registerAccessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        userId: request.user?.id,
      },
      'request',
    );
    done();
  });
}
