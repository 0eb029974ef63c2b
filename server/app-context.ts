// What every route module is handed: the configuration, the database and the token service.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connection.ts';
import type { FileStore } from './modules/uploads/file-store.ts';
import type { LoginLimiter } from './modules/auth/login-limiter.ts';
import type { SecretBox } from './modules/delivery/secret-box.ts';
import type { Tokens } from './plugins/auth.ts';

export interface AppContext {
  config: Config;
  /** The server's log: Fastify's pino logger. */
  log: FastifyBaseLogger;
  database: DbHandle;
  tokens: Tokens;
  loginLimiter: LoginLimiter;
  uploadsDir: string;
  /** Where uploaded files are kept (the disk under uploadsDir). */
  files: FileStore;
  /** Seals and opens the delivery secrets kept in the database. */
  secrets: SecretBox;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
