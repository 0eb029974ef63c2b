// Client dashboard parts: welcome banner with refresh, today's figures, balance, quick links.
import {
  ArrowRight,
  BarChart3,
  Coins,
  FileText,
  RefreshCw,
  RotateCcw,
  Send,
  TrendingDown,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import type { ClientDashboard } from '#common/dashboard.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { formatNumber } from '#client/lib/format.ts';

const QUICK_LINKS: { to: string; title: string; text: string; icon: LucideIcon }[] = [
  {
    to: '/blast-form',
    title: 'Kirim Blast Baru',
    text: 'Kirim pesan ke banyak nomor WhatsApp sekaligus',
    icon: Send,
  },
  { to: '/topup', title: 'Top Up Poin', text: 'Tambah poin untuk mengirim blast', icon: Coins },
  {
    to: '/blast-results',
    title: 'Lihat Hasil Blast',
    text: 'Pantau status dan hasil blast Anda',
    icon: FileText,
  },
];

export function ClientWelcome({
  username,
  refreshing,
  onRefresh,
}: {
  username: string;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  return (
    <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-6 text-white shadow-sm sm:p-8">
      <div className="relative flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">
            Selamat datang, {username}!
          </h1>
          <p className="mt-1 text-sm text-white">
            Kelola blast WhatsApp Anda dan pantau penggunaan poin hari ini.
          </p>
        </div>
        <Button
          variant="secondary"
          className="self-start bg-white text-green-800 hover:bg-white/90 sm:self-center"
          onClick={onRefresh}
          aria-busy={refreshing || undefined}
        >
          <RefreshCw aria-hidden className={refreshing ? 'animate-spin' : undefined} />
          Refresh
        </Button>
      </div>
      <div
        aria-hidden
        className="pointer-events-none absolute -right-16 -top-16 size-56 rounded-full bg-white/5"
      />
    </section>
  );
}

export function ClientStats({ stats }: { stats: ClientDashboard }) {
  return (
    <StatGrid
      label="Ringkasan"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      stats={[
        {
          title: 'Blast Hari Ini',
          value: formatNumber(stats.today_blasts),
          icon: Zap,
          tone: 'primary',
        },
        {
          title: 'Poin Terpakai Hari Ini',
          value: formatNumber(stats.points_used_today),
          icon: TrendingDown,
          tone: 'warning',
        },
        {
          title: 'Poin Refund Hari Ini',
          value: formatNumber(stats.points_refunded_today),
          icon: RotateCcw,
          tone: 'info',
        },
        {
          title: 'Total Blast',
          value: formatNumber(stats.total_blasts),
          icon: BarChart3,
          tone: 'neutral',
        },
      ]}
    />
  );
}

export function ClientPointStatus({ stats }: { stats: ClientDashboard }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status Poin Saat Ini</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-2">
        <div className="flex items-center gap-4 rounded-xl bg-primary-soft p-5">
          <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-primary text-primary-foreground">
            <Coins aria-hidden className="size-6" />
          </span>
          <div>
            <p className="text-3xl font-bold text-primary" data-dashboard-points="">
              {formatNumber(stats.current_points)}
            </p>
            <p className="text-sm text-muted-foreground">Poin tersedia</p>
            <p className="mt-1 text-xs text-muted-foreground">
              1 poin = 1 nomor WhatsApp. Setiap nomor tujuan memakai 1 poin.
            </p>
          </div>
        </div>
        <div className="rounded-xl border p-5" data-today-activity="">
          <h3 className="text-sm font-semibold">Aktivitas Hari Ini</h3>
          <dl className="mt-3 grid gap-2 text-sm">
            <div className="flex items-center justify-between gap-3">
              <dt className="text-muted-foreground">Poin terpakai</dt>
              <dd className="font-semibold text-destructive">
                -{formatNumber(stats.points_used_today)}
              </dd>
            </div>
            {stats.points_refunded_today > 0 && (
              <div className="flex items-center justify-between gap-3">
                <dt className="text-muted-foreground">Poin refund</dt>
                <dd className="font-semibold text-primary">
                  +{formatNumber(stats.points_refunded_today)}
                </dd>
              </div>
            )}
            <div className="flex items-center justify-between gap-3">
              <dt className="text-muted-foreground">Blast dibuat</dt>
              <dd className="font-semibold">{formatNumber(stats.today_blasts)}</dd>
            </div>
          </dl>
        </div>
      </CardContent>
    </Card>
  );
}

export function ClientQuickLinks() {
  return (
    <section aria-labelledby="quick-links" className="grid gap-3">
      <h2 id="quick-links" className="text-base font-semibold">
        Menu Cepat
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        {QUICK_LINKS.map(({ to, title, text, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            className="group flex items-center gap-4 rounded-xl border bg-card p-5 shadow-sm transition-colors hover:border-primary/50 hover:bg-primary-soft/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="grid size-11 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary">
              <Icon aria-hidden className="size-5" />
            </span>
            <span className="min-w-0 flex-1">
              <span className="block font-semibold">{title}</span>
              <span className="block text-sm text-muted-foreground">{text}</span>
            </span>
            <ArrowRight
              aria-hidden
              className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
            />
          </Link>
        ))}
      </div>
    </section>
  );
}
