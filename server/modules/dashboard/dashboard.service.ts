// The figures of both dashboards.
import { jakartaDayRange, type AdminDashboard, type ClientDashboard } from '#common/dashboard.ts';
import type { Db } from '#server/db/connection.ts';
import { blastCounts } from '#server/modules/blasts/blasts.service.ts';
import { pointRequestCounts } from '#server/modules/points/points.service.ts';

export async function adminDashboard(db: Db): Promise<AdminDashboard> {
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
}

export async function clientDashboard(
  db: Db,
  user: { id: string; points: number },
): Promise<ClientDashboard> {
  const { start, end } = jakartaDayRange(new Date());
  const [blasts, today, moved] = await Promise.all([
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
  const sum = (type: string) => Number(moved.find((t) => t.type === type)?.sum ?? 0);
  return {
    today_blasts: Number(today.n),
    points_used_today: -sum('usage'),
    points_refunded_today: sum('refund'),
    total_blasts: blasts.pending + blasts.completed + blasts.rejected + blasts.cancelled,
    current_points: user.points,
  };
}
