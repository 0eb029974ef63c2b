/* eslint-disable @typescript-eslint/no-explicit-any -- tests read answers loosely: they assert on them */
// For the doubles' own tests: a webhook receiver on node:http that keeps the raw bytes of each
// POST it took, standing where Sebar would.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: any;
}

export interface WebhookReceiver {
  url: string;
  /** The POSTs answered 2xx, in arrival order. */
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A receiver at `path`. `answer` picks the HTTP status of each POST (200 by default); a GET
 * answers Meta's handshake when `verifyToken` is given and matches.
 */
export async function startWebhookReceiver(options: {
  path: string;
  answer?: (count: number) => number;
  verifyToken?: string;
}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let posts = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET') {
      const ok =
        options.verifyToken !== undefined &&
        url.searchParams.get('hub.verify_token') === options.verifyToken;
      response
        .writeHead(ok ? 200 : 403)
        .end(ok ? (url.searchParams.get('hub.challenge') ?? '') : '');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posts += 1;
      const status = options.answer?.(posts) ?? 200;
      const raw = Buffer.concat(chunks);
      if (status < 300)
        received.push({ headers: request.headers, raw, json: JSON.parse(String(raw)) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${options.path}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
