// Builds the whole server: database ready, plugins, every route. Tests import this.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connection.ts';
import { openDatabase } from './db/open.ts';
import { checkDurability } from './db/durability.ts';
import { migrate } from './db/migrate.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { blastsRoutes } from './modules/blasts/blasts.routes.ts';
import { purgeIdempotencyKeys } from './modules/blasts/blast-creation.service.ts';
import { DeliveryEngine } from './modules/delivery/engine.ts';
import { contactsRoutes } from './modules/contacts/contacts.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { deliveryRoutes } from './modules/delivery/delivery.routes.ts';
import { devicesRoutes } from './modules/delivery/devices.routes.ts';
import { loadSecretBox } from './modules/delivery/secret-box.ts';
import { webhooksRoutes } from './modules/delivery/webhooks.routes.ts';
import { templatesRoutes } from './modules/delivery/templates.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { notesRoutes } from './modules/notes/notes.routes.ts';
import { optOutsRoutes } from './modules/opt-outs/opt-outs.routes.ts';
import { pointsRoutes } from './modules/points/points.routes.ts';
import { pricingRoutes } from './modules/pricing/pricing.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { diskStore } from './modules/uploads/file-store.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { purgeUnusedUploads, sweepOrphanFiles } from './modules/uploads/uploads.service.ts';
import { ensureAdmin } from './modules/users/users.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { loggerOptions, registerAccessLog } from './plugins/access-log.ts';
import { LoginLimiter } from './modules/auth/login-limiter.ts';
import { createTokens, loadJwtKey, purgeRevokedTokens, registerAuth } from './plugins/auth.ts';
import { clientErrors, frameworkErrors, registerErrorHandling } from './plugins/errors.ts';
import { registerInFlight } from './plugins/in-flight.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { serializerCompiler } from './plugins/serializer.ts';

export const MODULES = [
  authRoutes,
  usersRoutes,
  contactsRoutes,
  notesRoutes,
  settingsRoutes,
  pricingRoutes,
  pointsRoutes,
  blastsRoutes,
  uploadsRoutes,
  dashboardRoutes,
  deliveryRoutes,
  devicesRoutes,
  webhooksRoutes,
  templatesRoutes,
  optOutsRoutes,
  healthRoutes,
];

/** One registered method + path and the access it declares (the access test compares its table). */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: string | undefined;
}

export interface BuiltApp {
  app: App;
  context: AppContext;
  routes: RegisteredRoute[];
}

export async function buildApp(
  config: Config,
  database: DbHandle = openDatabase(config),
): Promise<BuiltApp> {
  const app = createFastify(config);
  closeConnectionsAsTheyIdle(app);
  const routes = recordRoutes(app);
  registerAccessLog(app);
  const context = await prepareContext(app, config, database);
  await registerRoutes(app, context);
  await startHousekeeping(app, context);
  // After housekeeping: onClose hooks run last-added first, so the worker stops before the
  // database closes.
  startDelivery(app, context);
  return { app, context, routes };
}

/** The Fastify instance with the server's options and the zod type provider. */
function createFastify(config: Config): App {
  return Fastify({
    logger: loggerOptions(config.logLevel),
    // The access line is the app's own (plugins/access-log.ts): one per request, with the user.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Ids and filenames in paths are short; a huge URL is rejected before any work.
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // Behind a reverse proxy the caller's address is in X-Forwarded-For (SEBAR_TRUST_PROXY).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
}

/**
 * Node's server.close() ends the connections idle at that moment. One still being answered then
 * stays open after its answer for the keep-alive timeout (72 s), and the close waits for it
 * (fastify/fastify#7044): a shutdown under traffic, Meta's webhooks say, would take that long
 * before the delivery worker stops. While the server closes, connections are ended as they idle.
 */
function closeConnectionsAsTheyIdle(app: App) {
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
}

/** The table of routes as they are registered (filled by the onRoute hook). */
function recordRoutes(app: App): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, access: route.config?.access });
    }
  });
  return routes;
}

/** The database migrated and checked, the first admin, the token service: what routes get. */
async function prepareContext(app: App, config: Config, database: DbHandle): Promise<AppContext> {
  const log = app.log;
  await migrate(database);
  for (const warning of await checkDurability(database)) log.warn(warning);
  const admin = await ensureAdmin(database, config.adminEmail, config.adminPassword);
  if (admin?.generatedPassword) {
    log.warn(
      `First super administrator created: ${admin.email} with password ${admin.generatedPassword} (shown once; change it)`,
    );
  }
  const tokens = createTokens(
    database,
    await loadJwtKey(database.db, config.jwtSecret),
    config.tokenTtlSeconds,
  );
  const uploadsDir = path.join(config.dataDir, 'uploads');
  return {
    config,
    log,
    database,
    tokens,
    loginLimiter: new LoginLimiter(config.login),
    uploadsDir,
    files: diskStore(uploadsDir),
    secrets: await loadSecretBox(database.db, config.secretKey),
  };
}

/** Compilers and cross-cutting plugins, then every module's routes, then the browser app. */
async function registerRoutes(app: App, context: AppContext) {
  const { config } = context;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerSecurityHeaders(app);
  await registerOpenApi(app);
  registerErrorHandling(app);
  // The token is checked before the rate limit counts the request under its user.
  registerAuth(app, context.tokens);
  const rateLimited = config.userRateLimit > 0;
  if (rateLimited) await registerRateLimit(app, { max: config.userRateLimit });
  if (config.clientInFlight > 0) registerInFlight(app, config.clientInFlight);
  for (const register of MODULES) register(app, context);
  await serveClient(app, config.clientDir, rateLimited);
}

/** The delivery worker in this process, stopped (its sends recorded) before the database closes. */
function startDelivery(app: App, context: AppContext) {
  if (!context.config.deliveryWorker) return;
  const engine = new DeliveryEngine(context, context.config.delivery);
  engine.start();
  app.addHook('onClose', () => engine.stop());
}

/** Purges at start and hourly, the orphan-file sweep, and their end when the app closes. */
async function startHousekeeping(app: App, { database, files, log }: AppContext) {
  await purgeIdempotencyKeys(database);
  // Files a crash left without a row: swept once soon after start (not awaited, so a large
  // upload directory does not lengthen the start), then hourly with the purges.
  const sweep = () =>
    sweepOrphanFiles(database, files).catch((error) =>
      log.error({ err: error }, 'orphan file sweep failed'),
    );
  const firstSweep = setTimeout(() => void sweep(), 1000);
  firstSweep.unref();
  const purge = setInterval(
    () => {
      Promise.all([
        purgeIdempotencyKeys(database),
        purgeUnusedUploads(database, files),
        sweep(),
        purgeRevokedTokens(database),
      ]).catch((error) => log.error({ err: error }, 'purge failed'));
    },
    60 * 60 * 1000,
  );
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    clearTimeout(firstSweep);
    await database.close();
  });
}

/** The built browser app with the SPA fallback, or a short page saying how to build it. */
async function serveClient(app: App, clientDir: string, rateLimited: boolean) {
  const index = path.join(clientDir, 'index.html');
  if (fs.existsSync(index)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // scripts/compress-assets.ts writes .br and .gz beside each asset at build time.
      preCompressed: true,
    });
  }
  // Unknown paths count against the caller's address too.
  const preHandler = rateLimited ? app.rateLimit() : [];
  app.setNotFoundHandler({ preHandler }, (request, reply) => {
    // A screen's path (no file extension) is the app whatever the Accept header (curl, a link
    // checker); a missing file is the app only for a browser asking for a page. HEAD (uptime
    // checks) answers as GET does, without the body (Node's HTTP server sends none for HEAD).
    const lastSegment = request.url.split('?', 1)[0]!.split('/').pop() ?? '';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api') &&
      !request.url.startsWith('/uploads/') &&
      (!lastSegment.includes('.') || (request.headers.accept ?? '').includes('text/html'));
    if (!wantsPage) return reply.status(404).send({ detail: 'Tidak ditemukan' });
    if (fs.existsSync(index))
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    return reply
      .type('text/html')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Sebar</title><p>Sebar API berjalan. Jalankan <code>npm run build</code> untuk aplikasi web.</p>',
      );
  });
}
