// StatCard: one figure with its label and icon; StatGrid: a summary's cards side by side.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';
import { Card } from './card.tsx';

const tones = {
  primary: 'bg-primary-soft text-primary',
  warning: 'bg-warning-soft text-warning',
  destructive: 'bg-destructive-soft text-destructive',
  info: 'bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
  neutral: 'bg-muted text-muted-foreground',
} as const;

export interface StatCardProps {
  title: string;
  value: ReactNode;
  icon?: LucideIcon;
  description?: ReactNode;
  tone?: keyof typeof tones;
  /** True while the figure is being read: a placeholder stands in, never a false zero. */
  loading?: boolean;
  className?: string;
}

/** Stands in for a figure not read yet: a grey bar, 'Memuat...' to screen readers. */
export function LoadingFigure({ className }: { className?: string }) {
  return (
    <span
      data-loading-figure=""
      className={cn(
        'inline-block h-8 w-20 animate-pulse rounded-md bg-muted align-middle',
        className,
      )}
    >
      <span className="sr-only">Memuat...</span>
    </span>
  );
}

export function StatCard({
  title,
  value,
  icon: Icon,
  description,
  tone = 'primary',
  loading = false,
  className,
}: StatCardProps) {
  return (
    // The icon sits in the corner so the figure has the card's whole width (long figures wrap
    // instead of being cut on a phone's half-width card).
    <Card className={cn('relative p-5', className)} aria-busy={loading || undefined}>
      <div className="min-w-0">
        <p className={cn('text-sm font-medium text-muted-foreground', Icon && 'pr-12')}>{title}</p>
        <p className="mt-1 text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">
          {loading ? <LoadingFigure /> : value}
        </p>
        {description && <p className="mt-1 text-xs text-muted-foreground">{description}</p>}
      </div>
      {Icon && (
        <span
          className={cn(
            'absolute right-5 top-5 grid size-10 place-items-center rounded-lg',
            tones[tone],
          )}
        >
          <Icon aria-hidden className="size-5" />
        </span>
      )}
    </Card>
  );
}

/** A summary's figures side by side, one card each, in a section named by `label`. */
export function StatGrid({
  label,
  className,
  loading,
  stats,
}: {
  label: string;
  className: string;
  loading?: boolean;
  stats: readonly Omit<StatCardProps, 'loading' | 'className'>[];
}) {
  return (
    <section aria-label={label} className={className}>
      {stats.map((stat) => (
        <StatCard key={stat.title} {...stat} loading={loading} />
      ))}
    </section>
  );
}
