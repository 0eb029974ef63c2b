// Loading indicators: an inline Spinner and a centred PageSpinner for whole screens or panels.
import { LoaderCircle } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

const sizes = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

export interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Text for screen readers. */
  label?: string;
  /** Inside a control that already says it is busy: hidden from screen readers. */
  decorative?: boolean;
  className?: string;
}

export function Spinner({
  size = 'md',
  label = 'Memuat...',
  decorative = false,
  className,
}: SpinnerProps) {
  const icon = (
    <LoaderCircle aria-hidden className={cn('animate-spin text-primary', sizes[size], className)} />
  );
  if (decorative) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner centred in the available space (a page, a card, the app while the session loads). */
export function PageSpinner({ label, className }: { label?: string; className?: string }) {
  return (
    <div className={cn('flex min-h-40 w-full flex-1 items-center justify-center p-8', className)}>
      <Spinner size="lg" label={label} />
    </div>
  );
}
