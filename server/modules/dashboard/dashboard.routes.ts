// The dashboards' routes: the admin's and a client's figures.
import { AdminDashboardSchema, ClientDashboardSchema } from '#common/dashboard.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { currentUser } from '#server/plugins/auth.ts';
import { adminDashboard, clientDashboard } from './dashboard.service.ts';

const tags = ['dashboard'];

export function dashboardRoutes(app: App, { database: { db } }: AppContext) {
  app.get(
    '/api/admin/dashboard',
    { config: { access: 'admin' }, schema: { tags, response: { 200: AdminDashboardSchema } } },
    () => adminDashboard(db),
  );
  app.get(
    '/api/client/dashboard',
    { config: { access: 'client' }, schema: { tags, response: { 200: ClientDashboardSchema } } },
    (request) => clientDashboard(db, currentUser(request)),
  );
}
