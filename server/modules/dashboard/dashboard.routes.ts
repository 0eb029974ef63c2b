// The figures of both dashboards.
import {
  AdminDashboardSchema,
  ClientDashboardSchema,
  jakartaDayRange,
} from '../../../common/dashboard.ts';
import type { App, AppContext } from '../../app-context.ts';
import { blastCounts, pointRequestCounts } from '../../db/counters.ts';
import { currentUser } from '../../plugins/auth.ts';

const tags = ['dashboard'];

export function dashboardRoutes(app: App, { database: { db } }: AppContext) {
  app.get(
    '/api/admin/dashboard',
    { config: { access: 'admin' }, schema: { tags, response: { 200: AdminDashboardSchema } } },
    async () => {
      const [users, blasts, requests] = await Promise.all([
        db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('role', '=', 'client')
          .executeTakeFirstOrThrow(),
        blastCounts(db),
        pointRequestCounts(db),
      ]);
      return {
        total_users: Number(users.n),
        total_blasts: blasts.completed,
        pending_blasts: blasts.pending,
        pending_points: requests.pending.n,
      };
    },
  );

  app.get(
    '/api/client/dashboard',
    { config: { access: 'client' }, schema: { tags, response: { 200: ClientDashboardSchema } } },
    async (request) => {
      const user = currentUser(request);
      const { start, end } = jakartaDayRange(new Date());
      const [blasts, todayBlasts, today] = await Promise.all([
        blastCounts(db, user.id),
        // Today's rows only, a range of the (user_id, created_at) index.
        db
          .selectFrom('blasts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', user.id)
          .where('created_at', '>=', start)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('point_transactions')
          .select((eb) => ['type', eb.fn.sum<number>('delta').as('sum')])
          .where('user_id', '=', user.id)
          .where('type', 'in', ['usage', 'refund'])
          .where('created_at', '>=', start)
          .where('created_at', '<', end)
          .groupBy('type')
          .execute(),
      ]);
      const sum = (type: string) => Number(today.find((t) => t.type === type)?.sum ?? 0);
      return {
        today_blasts: Number(todayBlasts.n),
        points_used_today: -sum('usage'),
        points_refunded_today: sum('refund'),
        total_blasts: blasts.pending + blasts.completed + blasts.rejected + blasts.cancelled,
        current_points: user.points,
      };
    },
  );
}
