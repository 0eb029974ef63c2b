// `npm run worker`: a delivery worker alone, beside servers started with SEBAR_DELIVERY_WORKER=off
// (or as more workers on one PostgreSQL). It reads the same environment as the server.
import path from 'node:path';
import pino from 'pino';
import { cannotStart } from './cannot-start.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { diskStore } from './modules/uploads/file-store.ts';
import { DeliveryEngine } from './modules/delivery/engine.ts';
import { loadSecretBox } from './modules/delivery/secret-box.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel });

async function startEngine() {
  const database = openDatabase(config);
  await migrate(database);
  const engine = new DeliveryEngine(
    {
      database,
      log,
      secrets: await loadSecretBox(database.db, config.secretKey),
      files: diskStore(path.join(config.dataDir, 'uploads')),
    },
    config.delivery,
  );
  engine.start();
  return { engine, database };
}

const { engine, database } = await startEngine().catch(cannotStart);
log.info('Sebar delivery worker started');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    engine
      .stop()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
