// A page of a list ordered newest first, read from whichever end of its index is nearer: the last
// page skips as few index entries as the first.
import type { Kysely } from 'kysely';
import type { Db } from './connection.ts';
import type { BlastsTable, Database } from './schema.ts';

/** Where a page lies in its list's index: with `reverse`, read oldest first, then reverse. */
export interface PageWindow {
  reverse: boolean;
  offset: number;
  limit: number;
}

export function pageWindow(page: number, pageSize: number, total: number): PageWindow {
  const start = (page - 1) * pageSize;
  const end = Math.min(start + pageSize, total);
  if (start >= total || start <= total - end) {
    return { reverse: false, offset: start, limit: pageSize };
  }
  return { reverse: true, offset: total - end, limit: end - start };
}

/**
 * The ids of a page window of blasts or top-up requests, newest first, filtered by client and
 * status: read from an index alone ((user_id or status,) created_at, id), so the offset skips
 * index entries, not rows. Callers read those rows by id.
 */
export function windowIds(
  db: Db,
  table: 'blasts' | 'point_requests',
  filter: { userId?: string; status?: string },
  { reverse, offset, limit }: PageWindow,
) {
  const order = reverse ? 'asc' : 'desc';
  // Both tables have the columns read here; typed as one of them for the builder.
  let ids = (db as Kysely<Pick<Database, 'blasts'>>)
    .selectFrom(table as 'blasts')
    .select('id')
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(limit)
    .offset(offset);
  if (filter.userId) ids = ids.where('user_id', '=', filter.userId);
  if (filter.status) ids = ids.where('status', '=', filter.status as BlastsTable['status']);
  return ids;
}
