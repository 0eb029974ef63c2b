// History Poin (/point-history): the balance, the server's totals and the ledger, 5 per page, each
// entry with its signed change and the balance it left (balance_after).
import { History } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  REFUND_CORRECTION_LABEL,
  transactionLabel,
  type Transaction,
  type TransactionType,
} from '#common/points.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import type { DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PagedTable } from '#client/components/ui/paged-table.tsx';
import { useMe } from '#client/features/auth/api.ts';
import { ClientBlastDetail } from '#client/features/blasts/client-blast-detail.tsx';
import {
  CLIENT_PAGE_SIZE,
  useSyncBalance,
  useTransactions,
} from '#client/features/points/client-api.ts';
import {
  PointBalanceBanner,
  PointSummaryStats,
} from '#client/features/points/point-history-parts.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber } from '#client/lib/format.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

const TYPE_VARIANT: Record<TransactionType, BadgeProps['variant']> = {
  topup: 'success',
  usage: 'destructive',
  refund: 'warning',
  adjustment: 'secondary',
};

const signed = (delta: number) =>
  delta > 0 ? `+${formatNumber(delta)}` : delta < 0 ? `-${formatNumber(-delta)}` : '0';

/** The ledger's columns; an entry of a blast opens that blast's detail. */
const columnsFor = (openBlast: (id: string) => void): DataTableColumn<Transaction>[] => [
  {
    key: 'date',
    header: 'Tanggal',
    className: 'whitespace-nowrap',
    cell: (entry) => formatDateTime(entry.created_at),
  },
  {
    key: 'type',
    header: 'Tipe',
    cell: (entry) => {
      const label = transactionLabel(entry);
      const variant = label === REFUND_CORRECTION_LABEL ? 'secondary' : TYPE_VARIANT[entry.type];
      return (
        <Badge variant={variant} data-transaction-type={entry.type}>
          {label}
        </Badge>
      );
    },
  },
  {
    key: 'description',
    header: 'Deskripsi',
    className: 'min-w-56',
    cell: (entry) => (
      <div className="grid justify-items-start gap-1">
        <span data-transaction-description="">{entry.description}</span>
        {entry.blast_id && (
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0 text-xs"
            onClick={() => openBlast(entry.blast_id!)}
          >
            Lihat blast
          </Button>
        )}
      </div>
    ),
  },
  {
    key: 'amount',
    header: 'Jumlah',
    className: 'whitespace-nowrap text-right',
    cell: (entry) => (
      <span
        className={cn(
          'font-semibold',
          entry.delta > 0 ? 'text-primary' : entry.delta < 0 ? 'text-destructive' : undefined,
        )}
        data-transaction-delta=""
      >
        {signed(entry.delta)}
      </span>
    ),
  },
  {
    key: 'balance',
    header: 'Saldo',
    className: 'whitespace-nowrap text-right',
    cell: (entry) => (
      <span className="font-medium" data-transaction-balance="">
        {formatNumber(entry.balance_after)}
      </span>
    ),
  },
];

export default function PointHistoryPage() {
  const [page, setPage] = useState(1);
  const [blastId, setBlastId] = useState<string | null>(null);
  const columns = useMemo(() => columnsFor(setBlastId), []);
  const me = useMe();
  const transactions = useTransactions(page);
  // A failed load is logged only (SPEC); the list then shows its empty state.
  useConsoleError(transactions.error, 'riwayat poin');
  const summary = transactions.data?.summary;
  useSyncBalance(summary?.current_points, transactions.dataUpdatedAt);
  // The shell's balance stands in until the ledger's own arrives; neither yet: a placeholder.
  const balance = summary?.current_points ?? me.data?.points;

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="History Poin"
        description="Semua perubahan poin Anda: top up, penggunaan untuk blast dan refund."
      />
      <PointBalanceBanner balance={balance} loading={transactions.isPending} />
      <PointSummaryStats summary={summary} loading={transactions.isPending} />

      <div className="grid grid-cols-1 gap-2">
        <PagedTable
          stacked
          label="Riwayat transaksi poin"
          columns={columns}
          rowKey={(entry) => entry.id}
          query={transactions}
          page={page}
          pageSize={CLIENT_PAGE_SIZE}
          onPageChange={setPage}
          showLoadError={false}
          empty={<EmptyState icon={History} title="Belum ada transaksi poin" />}
        />
      </div>
      <ClientBlastDetail blastId={blastId} onClose={() => setBlastId(null)} />
    </div>
  );
}
