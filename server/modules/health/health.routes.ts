// Liveness with a real database round trip, and the OpenAPI document.
import { sql } from 'kysely';
import type { App, AppContext } from '../../app-context.ts';

export function healthRoutes(app: App, { database }: AppContext) {
  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['health'] } },
    async () => {
      await sql`select 1`.execute(database.db);
      return { status: 'ok', engine: database.engine };
    },
  );
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );
}
