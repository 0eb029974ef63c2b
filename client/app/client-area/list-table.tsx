// A client list: its table, or (loaded with nothing in it) its empty state on its own, so the
// message is never centred in a table wider than a phone and cut off by the sideways scroll.
import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from '../../components/ui/data-table.tsx';

export function ListTable<Row>(props: DataTableProps<Row> & { empty: ReactNode }) {
  const { loading, rows, empty, label } = props;
  if (!loading && (!rows || rows.length === 0)) {
    return (
      <section aria-label={label} className="rounded-lg border bg-card" data-list-empty="">
        {empty}
      </section>
    );
  }
  return <DataTable {...props} />;
}
