// The figures of both dashboards, counted from the rows on their indexes.
import {
  jakartaDayRange,
  type AdminDashboard,
  type ClientDashboard,
} from '../../../common/dashboard.ts';
import type { Db } from '../../db/connection.ts';

const countOf = (row: { n: number | string }) => Number(row.n);

export async function adminDashboard(db: Db): Promise<AdminDashboard> {
  const [users, blasts, requests] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'client')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('blasts')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ['pending', 'completed'])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('point_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  const blastsOf = (status: string) => countOf(blasts.find((b) => b.status === status) ?? { n: 0 });
  return {
    total_users: countOf(users),
    total_blasts: blastsOf('completed'),
    pending_blasts: blastsOf('pending'),
    pending_points: countOf(requests),
  };
}

export async function clientDashboard(
  db: Db,
  user: { id: string; points: number },
): Promise<ClientDashboard> {
  const { start, end } = jakartaDayRange(new Date());
  const blastsSince = (since: string | null) => {
    let query = db
      .selectFrom('blasts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id);
    if (since) query = query.where('created_at', '>=', since);
    return query.executeTakeFirstOrThrow().then(countOf);
  };
  const [total, today, moved] = await Promise.all([
    blastsSince(null),
    blastsSince(start),
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
    today_blasts: today,
    points_used_today: -sum('usage'),
    points_refunded_today: sum('refund'),
    total_blasts: total,
    current_points: user.points,
  };
}
