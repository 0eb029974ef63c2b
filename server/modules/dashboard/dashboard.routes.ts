// The figures of both dashboards.
import {
  AdminDashboardSchema,
  ClientDashboardSchema,
  jakartaDayRange,
} from '../../../common/dashboard.ts';
import type { App, AppContext } from '../../app-context.ts';
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
        db
          .selectFrom('blasts')
          .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
          .groupBy('status')
          .execute(),
        db
          .selectFrom('point_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
      ]);
      const blastsIn = (status: string) => Number(blasts.find((b) => b.status === status)?.n ?? 0);
      return {
        total_users: Number(users.n),
        total_blasts: blastsIn('completed'),
        pending_blasts: blastsIn('pending'),
        pending_points: Number(requests.n),
      };
    },
  );

  app.get(
    '/api/client/dashboard',
    { config: { access: 'client' }, schema: { tags, response: { 200: ClientDashboardSchema } } },
    async (request) => {
      const user = currentUser(request);
      const { start, end } = jakartaDayRange(new Date());
      const [blasts, today] = await Promise.all([
        db
          .selectFrom('blasts')
          .select((eb) => [
            eb.fn.countAll<number>().as('total'),
            eb.fn
              .sum<number>(eb.case().when('created_at', '>=', start).then(1).else(0).end())
              .as('today'),
          ])
          .where('user_id', '=', user.id)
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
        today_blasts: Number(blasts.today ?? 0),
        points_used_today: -sum('usage'),
        points_refunded_today: sum('refund'),
        total_blasts: Number(blasts.total),
        current_points: user.points,
      };
    },
  );
}
