// Inline Alert: a message block inside a page or form (role=alert for errors, status otherwise).
import { cva, type VariantProps } from 'class-variance-authority';
import { AlertCircle, CheckCircle2, Info, TriangleAlert } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';

const alertVariants = cva('flex items-start gap-3 rounded-lg border p-3 text-sm [&>svg]:mt-0.5', {
  variants: {
    variant: {
      destructive: 'border-destructive/30 bg-destructive-soft text-destructive',
      info: 'border-border bg-muted text-foreground',
      success: 'border-primary/30 bg-primary-soft text-primary',
      warning: 'border-warning/30 bg-warning-soft text-warning',
    },
  },
  defaultVariants: { variant: 'info' },
});

const icons = {
  destructive: AlertCircle,
  info: Info,
  success: CheckCircle2,
  warning: TriangleAlert,
};

export interface AlertProps
  extends Omit<ComponentProps<'div'>, 'title'>, VariantProps<typeof alertVariants> {
  title?: ReactNode;
}

export function Alert({ className, variant, title, children, role, ...props }: AlertProps) {
  const Icon = icons[variant ?? 'info'];
  return (
    <div
      role={role ?? (variant === 'destructive' ? 'alert' : 'status')}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    >
      <Icon aria-hidden className="size-4 shrink-0" />
      <div className="grid gap-0.5">
        {title && <p className="font-semibold">{title}</p>}
        <div>{children}</div>
      </div>
    </div>
  );
}
