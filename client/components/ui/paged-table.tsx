// PagedTable: a server-paginated list's table and pager, fed by one TanStack query of a page.
import type { DataTableProps } from './data-table.tsx';
import { DataTable } from './data-table.tsx';
import { Pagination } from './pagination.tsx';

export interface PageQuery<Row> {
  data?: { items: Row[]; total: number; page: number };
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export interface PagedTableProps<Row> extends Omit<
  DataTableProps<Row>,
  'rows' | 'loading' | 'error' | 'onRetry'
> {
  query: PageQuery<Row>;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** False: a failed first load shows the empty state (the client's lists only log it, SPEC). */
  showLoadError?: boolean;
}

/**
 * A failed refresh keeps the rows on screen (the load toast says it); only a first failure shows.
 * The pager describes the rows on screen: while the next page loads, the previous one stays, and
 * so does its footer.
 */
export function PagedTable<Row>({
  query,
  page,
  pageSize,
  onPageChange,
  showLoadError = true,
  ...table
}: PagedTableProps<Row>) {
  return (
    <>
      <DataTable
        {...table}
        rows={query.data?.items}
        loading={query.isPending}
        error={showLoadError && query.isError && !query.data}
        onRetry={() => void query.refetch()}
      />
      <Pagination
        page={query.data?.page ?? page}
        total={query.data?.total ?? 0}
        pageSize={pageSize}
        onPageChange={onPageChange}
      />
    </>
  );
}
