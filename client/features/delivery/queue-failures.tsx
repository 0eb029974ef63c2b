// Today's failures on the queue card: by Meta's error code with what it means for the admin;
// Sebar's own failures (no code) by their reason.
import type { DeliveryQueue } from '#common/delivery.ts';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { formatNumber } from '#client/lib/format.ts';

type Failure = DeliveryQueue['failures_today'][number];

const COLUMNS: DataTableColumn<Failure>[] = [
  {
    key: 'code',
    header: 'Kode',
    className: 'w-24',
    cell: (f) => <span className="font-mono">{f.code ?? '-'}</span>,
  },
  { key: 'meaning', header: 'Arti', cell: (f) => f.meaning },
  {
    key: 'count',
    header: 'Jumlah',
    className: 'w-20 text-right',
    cell: (f) => <span className="font-semibold">{formatNumber(f.count)}</span>,
  },
];

export function QueueFailures({ failures }: { failures: Failure[] }) {
  return (
    <section aria-labelledby="queue-failures-title" className="grid gap-2">
      <h3 id="queue-failures-title" className="text-sm font-semibold">
        Kegagalan Hari Ini
      </h3>
      <DataTable
        label="Kegagalan hari ini per kode error"
        columns={COLUMNS}
        rows={failures}
        rowKey={(f) => `${f.code ?? ''}:${f.meaning}`}
        empty="Belum ada nomor yang gagal hari ini."
        stacked
      />
    </section>
  );
}
