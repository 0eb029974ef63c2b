// What every route module is handed: the configuration, the database and the token service.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connection.ts';
import type { FileStore } from './modules/uploads/file-store.ts';
import type { LoginLimiter, Tokens } from './plugins/auth.ts';
import type { RateLimit } from './plugins/rate-limit.ts';

export interface AppContext {
  config: Config;
  /** The server's log (Fastify has none of its own: plugins/access-log.ts). */
  log: Logger;
  database: DbHandle;
  tokens: Tokens;
  loginLimiter: LoginLimiter;
  /** The per-user request limit (null when SEBAR_USER_RATE_LIMIT is 0). */
  rateLimit: RateLimit | null;
  uploadsDir: string;
  /** Where uploaded files are kept (the disk under uploadsDir). */
  files: FileStore;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
