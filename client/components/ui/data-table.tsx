// DataTable: columns + rows with loading, error and empty states; on phones either scrolls
// sideways inside its box or (stacked) shows each row as a card of labelled lines.
import type { ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

export interface DataTableColumn<Row> {
  /** Unique within the table. */
  key: string;
  header: ReactNode;
  /** The cell's label on a stacked card; defaults to the header when that is text. */
  label?: string;
  cell: (row: Row, index: number) => ReactNode;
  /** Applied to the header and every cell of the column (e.g. 'text-right w-32'). */
  className?: string;
}

export interface DataTableProps<Row> {
  columns: DataTableColumn<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  /** Accessible name of the table (rendered as a visually hidden caption). */
  label: string;
  loading?: boolean;
  /** Truthy: shows the error state instead of rows. */
  error?: unknown;
  errorText?: string;
  onRetry?: () => void;
  /** Text when there are no rows, or a whole element (e.g. an <EmptyState/>). */
  empty?: ReactNode;
  className?: string;
  rowClassName?: (row: Row) => string | undefined;
  /** Below 48rem, rows become cards and each cell a line labelled by its column (styles.css). */
  stacked?: boolean;
}

export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  label,
  loading = false,
  error,
  errorText = 'Gagal memuat data',
  onRetry,
  empty = 'Tidak ada data',
  className,
  rowClassName,
  stacked = false,
}: DataTableProps<Row>) {
  const state: 'loading' | 'error' | 'empty' | 'rows' = loading
    ? 'loading'
    : error
      ? 'error'
      : !rows || rows.length === 0
        ? 'empty'
        : 'rows';
  return (
    // relative: visually hidden (absolute) text in a cell is clipped here, not widening the page.
    <div
      className={cn(
        'relative w-full overflow-x-auto rounded-lg border bg-card',
        stacked && 'data-table-stacked',
        className,
      )}
    >
      <table className="w-full caption-bottom text-sm" aria-busy={state === 'loading' || undefined}>
        <caption className="sr-only">{label}</caption>
        <TableHead columns={columns} />
        <tbody>
          {state === 'rows' &&
            rows!.map((row, index) => (
              <tr
                key={rowKey(row)}
                className={cn(
                  'border-b transition-colors last:border-0 hover:bg-muted/40',
                  rowClassName?.(row),
                )}
              >
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={cn('px-4 py-3 align-middle', column.className)}
                    data-label={stacked ? labelOf(column) : undefined}
                  >
                    {stacked ? (
                      <div className="min-w-0">{column.cell(row, index)}</div>
                    ) : (
                      column.cell(row, index)
                    )}
                  </td>
                ))}
              </tr>
            ))}
          {state !== 'rows' && (
            <tr>
              <td colSpan={columns.length} className="p-0">
                <TableNotice state={state} errorText={errorText} onRetry={onRetry} empty={empty} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function labelOf<Row>(column: DataTableColumn<Row>): string | undefined {
  return column.label ?? (typeof column.header === 'string' ? column.header : undefined);
}

/** What the table shows instead of rows: a spinner, the error with 'Coba lagi', or the empty text. */
function TableNotice({
  state,
  errorText,
  onRetry,
  empty,
}: {
  state: 'loading' | 'error' | 'empty';
  errorText: string;
  onRetry?: () => void;
  empty: ReactNode;
}) {
  if (state === 'loading') {
    return (
      <div className="flex justify-center p-10">
        <Spinner size="lg" />
      </div>
    );
  }
  if (state === 'error') {
    return (
      <div className="flex flex-col items-center gap-3 p-6">
        <Alert variant="destructive" className="w-full max-w-md">
          {errorText}
        </Alert>
        {onRetry && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            Coba lagi
          </Button>
        )}
      </div>
    );
  }
  return typeof empty === 'string' ? (
    <p className="p-10 text-center text-sm text-muted-foreground">{empty}</p>
  ) : (
    empty
  );
}

/** The column headers. */
function TableHead<Row>({ columns }: { columns: DataTableColumn<Row>[] }) {
  return (
    <thead className="bg-muted/60">
      <tr className="border-b">
        {columns.map((column) => (
          <th
            key={column.key}
            scope="col"
            className={cn(
              'h-11 whitespace-nowrap px-4 text-left align-middle text-xs font-semibold uppercase tracking-wide text-muted-foreground',
              column.className,
            )}
          >
            {column.header}
          </th>
        ))}
      </tr>
    </thead>
  );
}
