// The process entry: read config, build the app, listen, close cleanly on a signal.
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
const { app } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
