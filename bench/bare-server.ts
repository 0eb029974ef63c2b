// The framework's limit on this machine: a bare Fastify route answering {} (a baseline child).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({}));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`,
);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
