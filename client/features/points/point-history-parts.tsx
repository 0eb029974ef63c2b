// History Poin parts: the balance banner and the ledger's four totals.
import { ArrowDownRight, ArrowUpRight, Coins, RotateCcw, Wallet } from 'lucide-react';
import type { TransactionSummary } from '#common/points.ts';
import { LoadingFigure, StatGrid } from '#client/components/ui/stat-card.tsx';
import { formatFigure, formatNumber } from '#client/lib/format.ts';

/** The balance, or a placeholder while it loads, or '-' once loading gave none. */
export function PointBalanceBanner({
  balance,
  loading,
}: {
  balance: number | undefined;
  loading: boolean;
}) {
  return (
    <section className="flex items-center gap-4 rounded-2xl bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-6 text-white shadow-sm">
      <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-white/15">
        <Wallet aria-hidden className="size-6" />
      </span>
      <div>
        <p className="text-sm text-white">Saldo Poin Saat Ini</p>
        <p className="text-3xl font-bold" data-history-balance="">
          {balance !== undefined ? (
            `${formatNumber(balance)} poin`
          ) : loading ? (
            <LoadingFigure className="w-32 bg-white/25" />
          ) : (
            '-'
          )}
        </p>
      </div>
    </section>
  );
}

export function PointSummaryStats({
  summary,
  loading,
}: {
  summary: TransactionSummary | undefined;
  loading: boolean;
}) {
  return (
    <StatGrid
      label="Ringkasan poin"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      loading={loading}
      stats={[
        {
          title: 'Total Top Up',
          value: formatFigure(summary?.total_topup),
          icon: ArrowUpRight,
          tone: 'primary',
        },
        {
          title: 'Total Terpakai',
          value: formatFigure(summary?.total_usage),
          icon: ArrowDownRight,
          tone: 'destructive',
        },
        {
          title: 'Total Refund',
          value: formatFigure(summary?.total_refund),
          icon: RotateCcw,
          tone: 'warning',
        },
        {
          title: 'Jumlah Transaksi',
          value: formatFigure(summary?.count),
          icon: Coins,
          tone: 'neutral',
        },
      ]}
    />
  );
}
