// The security headers of every answer: helmet's, computed once at start and set by one cheap
// hook (running helmet per request re-parsed the whole policy each time).
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // blob: previews of an image chosen for upload, before it is sent.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  xFrameOptions: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/** The headers helmet sets with our options, read off one dry run. */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as never, response as never, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return headers;
}

export const SECURITY_HEADERS = Object.freeze(helmetHeaders());

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
