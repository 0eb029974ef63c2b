// The first letter of a name in a circle.
import { cn } from '#client/lib/cn.ts';

/** The first letter of a name in a circle. */
export function Avatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn(
        'grid size-9 shrink-0 place-items-center rounded-full bg-primary text-sm font-semibold uppercase text-primary-foreground',
        className,
      )}
    >
      {name.trim().charAt(0) || '?'}
    </span>
  );
}
