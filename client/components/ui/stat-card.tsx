// StatCard: one figure with its label and icon (dashboard and summary cards).
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
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
  className?: string;
}

export function StatCard({
  title,
  value,
  icon: Icon,
  description,
  tone = 'primary',
  className,
}: StatCardProps) {
  return (
    // The icon sits in the corner so the figure has the card's whole width (long figures wrap
    // instead of being cut on a phone's half-width card).
    <Card className={cn('relative p-5', className)}>
      <div className="min-w-0">
        <p className={cn('text-sm font-medium text-muted-foreground', Icon && 'pr-12')}>{title}</p>
        <p className="mt-1 text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">{value}</p>
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
