// Label (Radix) and Field: a label, a control, a hint and an error message wired together.
import * as LabelPrimitive from '@radix-ui/react-label';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      className={cn('text-sm font-medium leading-none text-foreground', className)}
      {...props}
    />
  );
}

export interface FieldProps {
  /** The control's id; the hint is `${id}-hint`, the error `${id}-error`. */
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  /**
   * The control: give it id={id}, aria-invalid={!!error}, aria-describedby={describedBy(id, error,
   * hint)} and, with `required`, required too.
   */
  children: ReactNode;
}

/** The aria-describedby value for a Field's control. */
export function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function Field({ id, label, error, hint, required, className, children }: FieldProps) {
  return (
    <div className={cn('grid gap-2', className)}>
      {/* The asterisk is CSS with empty alternative text ('*' / ''): seen, but neither part of the
          label's text nor of the control's accessible name; the control's required state says it. */}
      <Label
        htmlFor={id}
        className={cn(required && "after:ml-0.5 after:text-destructive after:content-['*'_/_'']")}
      >
        {label}
      </Label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
