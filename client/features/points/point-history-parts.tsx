// History Poin parts: the balance banner and the ledger's four totals.
import { ArrowDownRight, ArrowUpRight, Coins, RotateCcw, Wallet } from 'lucide-react';
import type { TransactionSummary } from '#common/points.ts';
import { LoadingFigure, StatCard } from '#client/components/ui/stat-card.tsx';
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
    <section aria-label="Ringkasan poin" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Total Top Up"
        value={formatFigure(summary?.total_topup)}
        loading={loading}
        icon={ArrowUpRight}
        tone="primary"
      />
      <StatCard
        title="Total Terpakai"
        value={formatFigure(summary?.total_usage)}
        loading={loading}
        icon={ArrowDownRight}
        tone="destructive"
      />
      <StatCard
        title="Total Refund"
        value={formatFigure(summary?.total_refund)}
        loading={loading}
        icon={RotateCcw}
        tone="warning"
      />
      <StatCard
        title="Jumlah Transaksi"
        value={formatFigure(summary?.count)}
        loading={loading}
        icon={Coins}
        tone="neutral"
      />
    </section>
  );
}
