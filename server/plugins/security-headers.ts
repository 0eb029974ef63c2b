// The security headers of every answer, computed once at start and set by one cheap hook: helmet's
// for the app's pages and files (running helmet per request re-parsed the whole policy each time),
// and the short set OWASP gives for a JSON API under /api.
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Helmet's options: the page runs only its own script files, never an inline script. */
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
  referrerPolicy: { policy: REFERRER_POLICY },
  xFrameOptions: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/** The headers helmet sets with our options, read off one dry run. */
function pageHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as never, response as never, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return Object.freeze(headers);
}

/**
 * JSON is never rendered as a page: nothing may load from it or frame it, nor sniff it into a
 * script, nor read it from another origin. Helmet's other headers act on documents only, and each
 * header costs on every call.
 */
export const API_HEADERS = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': REFERRER_POLICY,
  'cross-origin-resource-policy': 'same-origin',
});

export function registerSecurityHeaders(app: FastifyInstance): void {
  const page = pageHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? API_HEADERS : page);
    done();
  });
}
