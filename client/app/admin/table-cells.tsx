// Small pieces the admin tables share: a two-line date and time, the client's name over its id, and
// tighter cell padding so the wide tables (Form Poin, Hasil Blast) fit beside the sidebar without
// sideways scrolling.
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDate, formatTime } from '#client/lib/format.ts';

/** '22 Nov 2026' over '11.32' (Asia/Jakarta). */
export function DateTimeCell({ value }: { value: string | null }) {
  if (!value) return <span>-</span>;
  return (
    <span className="grid whitespace-nowrap">
      <span>{formatDate(value)}</span>
      <span className="text-xs text-muted-foreground">{formatTime(value)}</span>
    </span>
  );
}

/**
 * The client's name over the start of its id. A long name breaks anywhere: a word without a
 * break point would otherwise widen the table past the screen and push its actions out of view.
 */
export function UserCell({ username, userId }: { username: string; userId: string }) {
  return (
    <div className="min-w-28">
      <p className="font-medium [overflow-wrap:anywhere]">{username}</p>
      <p className="font-mono text-xs text-muted-foreground" title={userId}>
        ID: {userId.slice(0, 8)}
      </p>
    </div>
  );
}

/** The same columns with 0.75rem instead of 1rem of side padding. */
export function compact<Row>(columns: DataTableColumn<Row>[]): DataTableColumn<Row>[] {
  return columns.map((column) => ({ ...column, className: cn('px-3', column.className) }));
}
