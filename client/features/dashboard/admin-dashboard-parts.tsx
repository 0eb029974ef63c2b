// Admin dashboard parts: welcome banner, the four figures, pending activity, quick menu.
import {
  ArrowRight,
  BarChart3,
  CheckCircle2,
  Clock,
  CreditCard,
  Send,
  Tags,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import type { AdminDashboard } from '#common/dashboard.ts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { StatGrid } from '#client/components/ui/stat-card.tsx';
import { formatFigure, formatNumber } from '#client/lib/format.ts';

const QUICK_LINKS: { to: string; label: string; description: string; icon: LucideIcon }[] = [
  {
    to: '/point-requests',
    label: 'Form Poin',
    description: 'Approve atau reject request top-up',
    icon: CreditCard,
  },
  {
    to: '/blast-results',
    label: 'Hasil Blast',
    description: 'Hasil dan status blast WhatsApp',
    icon: BarChart3,
  },
  { to: '/pricing', label: 'Daftar Harga', description: 'Atur tier harga poin', icon: Tags },
  { to: '/users', label: 'Akun Klien', description: 'Kelola akun dan poin klien', icon: Users },
];

export function AdminWelcome({ username }: { username: string }) {
  return (
    <section
      aria-labelledby="welcome-title"
      className="overflow-hidden rounded-xl bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-6 text-white shadow-sm sm:p-8"
    >
      <h1
        id="welcome-title"
        className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl"
      >
        Selamat datang, {username}!
      </h1>
      <p className="mt-2 max-w-2xl text-sm text-white sm:text-base">
        Kelola klien, request top-up poin dan hasil blast WhatsApp dari satu tempat.
      </p>
    </section>
  );
}

export function AdminStats({ stats }: { stats: AdminDashboard | undefined }) {
  return (
    <StatGrid
      label="Ringkasan"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      stats={[
        {
          title: 'Total Klien',
          value: formatFigure(stats?.total_users),
          description: 'Klien terdaftar',
          icon: Users,
          tone: 'info',
        },
        {
          title: 'Total Blast',
          value: formatFigure(stats?.total_blasts),
          description: 'Blast request selesai',
          icon: Send,
          tone: 'primary',
        },
        {
          title: 'Blast Pending',
          value: formatFigure(stats?.pending_blasts),
          description: 'Menunggu diproses',
          icon: Clock,
          tone: 'warning',
        },
        {
          title: 'Poin Pending',
          value: formatFigure(stats?.pending_points),
          description: 'Menunggu approval',
          icon: CreditCard,
          tone: 'destructive',
        },
      ]}
    />
  );
}

export function AdminRecentActivity({ stats }: { stats: AdminDashboard | undefined }) {
  const pendingBlasts = stats?.pending_blasts ?? 0;
  const pendingPoints = stats?.pending_points ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Aktivitas Terbaru</CardTitle>
        <CardDescription>Request yang menunggu tindakan Anda</CardDescription>
      </CardHeader>
      <CardContent>
        {!stats ? (
          <p className="py-6 text-center text-sm text-muted-foreground">-</p>
        ) : pendingBlasts > 0 || pendingPoints > 0 ? (
          <ul className="grid gap-3" data-recent-activity="">
            {pendingBlasts > 0 && (
              <li>
                <Link
                  to="/blast-results"
                  className="flex items-center gap-3 rounded-lg border border-warning/30 bg-warning-soft p-3 text-sm transition-colors hover:bg-warning-soft/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Clock aria-hidden className="size-5 shrink-0 text-warning" />
                  <span className="flex-1">
                    <strong>{formatNumber(pendingBlasts)}</strong> blast request menunggu diproses
                  </span>
                  <ArrowRight aria-hidden className="size-4 text-muted-foreground" />
                </Link>
              </li>
            )}
            {pendingPoints > 0 && (
              <li>
                <Link
                  to="/point-requests"
                  className="flex items-center gap-3 rounded-lg border border-destructive/30 bg-destructive-soft p-3 text-sm transition-colors hover:bg-destructive-soft/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <CreditCard aria-hidden className="size-5 shrink-0 text-destructive" />
                  <span className="flex-1">
                    <strong>{formatNumber(pendingPoints)}</strong> request poin menunggu approval
                  </span>
                  <ArrowRight aria-hidden className="size-4 text-muted-foreground" />
                </Link>
              </li>
            )}
          </ul>
        ) : (
          <div
            className="flex flex-col items-center gap-2 py-6 text-center"
            data-recent-activity=""
          >
            <CheckCircle2 aria-hidden className="size-10 text-primary" />
            <p className="font-medium">Tidak ada aktivitas pending</p>
            <p className="text-sm text-muted-foreground">Semua request sudah diproses</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function AdminQuickMenu() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Menu Cepat</CardTitle>
        <CardDescription>Pintasan ke tugas yang sering dilakukan</CardDescription>
      </CardHeader>
      <CardContent>
        <nav aria-label="Menu cepat">
          <ul className="grid gap-3 sm:grid-cols-2">
            {QUICK_LINKS.map(({ to, label, description, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex h-full items-start gap-3 rounded-lg border p-3 transition-colors hover:border-primary/40 hover:bg-primary-soft focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary">
                    <Icon aria-hidden className="size-5" />
                  </span>
                  <span className="min-w-0">
                    <span className="block text-sm font-semibold">{label}</span>
                    <span className="block text-xs text-muted-foreground">{description}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </CardContent>
    </Card>
  );
}
