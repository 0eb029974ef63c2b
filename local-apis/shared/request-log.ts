// What both doubles keep of the requests they receive, so that tests can check each request
// Sebar made: method, path, query, headers and the parsed body.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Every HTTP request the double received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  at: number;
}

export class RequestLog {
  readonly requests: RecordedRequest[] = [];
  /** Each request's entry, by its raw Node request, for bodies read late. */
  private readonly entries = new WeakMap<object, RecordedRequest>();

  /**
   * Records each request as it arrives and its parsed body before its handler runs. Registered
   * before the double's own hooks, so a request it refuses is recorded too.
   */
  attach(app: FastifyInstance): void {
    app.addHook('onRequest', async (request) => this.record(request));
    app.addHook('preHandler', async (request) => {
      if (request.body !== undefined) this.setBody(request, request.body);
    });
  }

  /** Sets the body of a request its handler reads itself (a multipart upload). */
  setBody(request: FastifyRequest, body: unknown): void {
    const entry = this.entries.get(request.raw);
    if (entry) entry.body = body;
  }

  private record(request: FastifyRequest): void {
    const [path = '', search = ''] = request.url.split('?');
    const entry: RecordedRequest = {
      method: request.method,
      path,
      query: Object.fromEntries(new URLSearchParams(search)),
      headers: { ...request.headers },
      body: undefined,
      at: Date.now(),
    };
    this.requests.push(entry);
    this.entries.set(request.raw, entry);
  }
}
