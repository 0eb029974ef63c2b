// Checks the points ledger's invariants on a whole database; every query is a plain aggregate
// so it runs the same on both engines and at production size.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './connection.ts';

export interface Violation {
  invariant: string;
  detail: string;
}

interface Check {
  invariant: string;
  /** Rows returned are violations; each row is described in the report. */
  query: RawBuilder<Record<string, unknown>>;
}

const CHECKS: Check[] = [
  {
    invariant: 'balance equals the sum of entries',
    query: sql`select u.id as user_id, u.points, coalesce(sum(t.delta), 0) as ledger_sum
      from users u left join point_transactions t on t.user_id = u.id
      group by u.id, u.points having u.points <> coalesce(sum(t.delta), 0)`,
  },
  {
    invariant: 'balance never negative',
    query: sql`select id as user_id, points from users where points < 0
      union all select user_id, balance_after as points from point_transactions where balance_after < 0`,
  },
  {
    invariant: 'ledger chain has no gap',
    query: sql`select u.id as user_id, u.ledger_seq, count(t.id) as entries, min(t.seq) as first_seq, max(t.seq) as last_seq
      from users u left join point_transactions t on t.user_id = u.id
      group by u.id, u.ledger_seq
      having count(t.id) <> u.ledger_seq or coalesce(max(t.seq), 0) <> u.ledger_seq
        or (count(t.id) > 0 and min(t.seq) <> 1)`,
  },
  {
    invariant: 'each entry holds the balance after it',
    query: sql`select t.user_id, t.seq, t.balance_after, prev.balance_after as previous_balance, t.delta
      from point_transactions t
      left join point_transactions prev on prev.user_id = t.user_id and prev.seq = t.seq - 1
      where t.balance_after <> coalesce(prev.balance_after, 0) + t.delta
        or (t.seq > 1 and prev.id is null)`,
  },
  {
    invariant: 'an approved top-up has exactly one credit of its points, others none',
    query: sql`select r.id as request_id, r.status, r.points_requested, count(t.id) as credits, coalesce(sum(t.delta), 0) as credited
      from point_requests r left join point_transactions t on t.point_request_id = r.id and t.type = 'topup'
      group by r.id, r.status, r.points_requested
      having (r.status = 'approved' and (count(t.id) <> 1 or coalesce(sum(t.delta), 0) <> r.points_requested))
        or (r.status <> 'approved' and count(t.id) <> 0)`,
  },
  {
    invariant: 'each blast has exactly one debit of its unique valid number count',
    query: sql`select b.id as blast_id, b.points_used, b.total_numbers,
        (select count(*) from blast_numbers n where n.blast_id = b.id) as numbers,
        (select count(*) from point_transactions t where t.blast_id = b.id and t.type = 'usage') as debits,
        (select coalesce(sum(t.delta), 0) from point_transactions t where t.blast_id = b.id and t.type = 'usage') as debited
      from blasts b
      where b.points_used <> b.total_numbers
        or b.total_numbers <> (select count(*) from blast_numbers n where n.blast_id = b.id)
        or (select count(*) from point_transactions t where t.blast_id = b.id and t.type = 'usage') <> 1
        or (select coalesce(sum(t.delta), 0) from point_transactions t where t.blast_id = b.id and t.type = 'usage') <> -b.points_used`,
  },
  {
    invariant: 'blast counts are the counts of its number statuses',
    query: sql`select b.id as blast_id, b.successful_count, b.failed_count, b.no_wa_count
      from blasts b
      where b.successful_count <> (select count(*) from blast_numbers n where n.blast_id = b.id and n.status = 'success')
        or b.failed_count <> (select count(*) from blast_numbers n where n.blast_id = b.id and n.status = 'failed')
        or b.no_wa_count <> (select count(*) from blast_numbers n where n.blast_id = b.id and n.status = 'no_wa')`,
  },
  {
    invariant:
      'refunds of a blast add up to its failed + no WA count (all points when a manual blast is rejected or cancelled)',
    query: sql`select b.id as blast_id, b.status, b.refund_points,
        (select coalesce(sum(t.delta), 0) from point_transactions t where t.blast_id = b.id and t.type = 'refund') as refunded
      from blasts b
      where b.refund_points <> case
          when b.status = 'pending' then 0
          when b.status = 'completed' or b.delivery_mode <> 'manual' then b.failed_count + b.no_wa_count
          else b.points_used end
        or b.refund_points <> (select coalesce(sum(t.delta), 0) from point_transactions t where t.blast_id = b.id and t.type = 'refund')`,
  },
  {
    invariant: 'one effect per idempotency key',
    query: sql`select user_id, key, status_code from idempotency_keys where status_code <> 201`,
  },
  {
    // db/summary-counts.ts: each client's kept counts equal its rows, counted.
    invariant: 'summary counts equal the rows they count',
    query: sql`with counted as (
        select user_id, 'blasts' as counter, status as kind, count(*) as n, 0 as total
          from blasts group by user_id, status
        union all select user_id, 'point_requests', status, count(*), sum(points_requested)
          from point_requests group by user_id, status
        union all select user_id, 'ledger', type, count(*), sum(delta)
          from point_transactions group by user_id, type)
      select c.user_id, c.counter, c.kind, c.n as counted, coalesce(s.n, 0) as kept, c.total as counted_total, coalesce(s.total, 0) as kept_total
      from counted c left join summary_counts s
        on s.user_id = c.user_id and s.counter = c.counter and s.kind = c.kind
      where coalesce(s.n, 0) <> c.n or coalesce(s.total, 0) <> c.total
      union all select s.user_id, s.counter, s.kind, 0, s.n, 0, s.total from summary_counts s
      where (s.n <> 0 or s.total <> 0) and not exists (select 1 from counted c
        where c.user_id = s.user_id and c.counter = s.counter and c.kind = s.kind)`,
  },
  {
    invariant: 'no orphan rows',
    query: sql`select 'point_transactions' as tbl, id as row_id from point_transactions t where not exists (select 1 from users u where u.id = t.user_id)
      union all select 'blasts', id from blasts b where not exists (select 1 from users u where u.id = b.user_id)
      union all select 'point_requests', id from point_requests r where not exists (select 1 from users u where u.id = r.user_id)
      union all select 'idempotency_keys', key from idempotency_keys k where not exists (select 1 from users u where u.id = k.user_id)
      union all select 'blast_numbers', blast_id from blast_numbers n where not exists (select 1 from blasts b where b.id = n.blast_id)
      union all select 'point_transactions.blast_id', id from point_transactions t where t.blast_id is not null and not exists (select 1 from blasts b where b.id = t.blast_id)
      union all select 'point_transactions.point_request_id', id from point_transactions t where t.point_request_id is not null and not exists (select 1 from point_requests r where r.id = t.point_request_id)`,
  },
];

export const INVARIANTS = CHECKS.map((c) => c.invariant);

/** Every broken invariant, with up to five offending rows each. */
export async function checkLedger(db: Db): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const check of CHECKS) {
    const { rows } = await check.query.execute(db);
    for (const row of rows.slice(0, 5)) {
      violations.push({ invariant: check.invariant, detail: JSON.stringify(row) });
    }
  }
  return violations;
}
