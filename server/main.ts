// The process entry: read config, build the app, listen, close cleanly on a signal.
import v8 from 'node:v8';
import { buildApp } from './app.ts';
import { cannotStart } from './cannot-start.ts';
import { loadConfig } from './config.ts';
import { listeningMessage } from './listening.ts';

// V8 lets the old generation grow to about twice what survived its last full collection before
// it collects again; under blast load every in-flight request's data survives into it (requests
// outlive two young collections), and the process passed 150 MB. A heap allowed 35% over its
// live size collects a few more times a minute (about 10 ms each) and stays near 65 MB.
v8.setFlagsFromString('--heap-growing-percent=35');

const config = loadConfig();
const { app, context } = await buildApp(config).catch(cannotStart);
// Fastify logs a line per socket address; this one line names the wildcard and what it reaches.
await app.listen({ port: config.port, host: config.host }).catch(cannotStart);
context.log.info(listeningMessage(app.addresses()));

// The same signal can come several times: Ctrl-C reaches every process of the terminal's group,
// and each npm above the server forwards what it gets. The first starts closing; a repeat must
// not end the process (a listener removed after one call would leave the default, which kills).
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    // A stop is in the log, so that one nobody asked for can be traced to its signal.
    context.log.info({ signal }, 'Stopping on signal');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
