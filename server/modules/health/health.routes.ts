// Liveness with a real database round trip, and the OpenAPI document.
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { checkDatabase } from './health.service.ts';

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
    async () => ({ status: 'ok' as const, engine: await checkDatabase(database) }),
  );
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
}
