// Liveness with a real database round trip, and the OpenAPI document.
import { sql } from 'kysely';
import { z } from '../../../common/zod.ts';
import type { App, AppContext } from '../../app-context.ts';

export function healthRoutes(app: App, { database }: AppContext) {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ok'), engine: z.enum(['sqlite', 'postgres']) }),
        },
      },
    },
    async () => {
      await sql`select 1`.execute(database.db);
      return { status: 'ok' as const, engine: database.engine };
    },
  );
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
}
