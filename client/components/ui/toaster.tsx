// The Toaster (Radix Toast): renders the toast store; mounted once at the app root.
import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { dismissToast, TOAST_DURATION, useToast } from './use-toast.ts';

const variants = {
  default: 'border-border bg-card text-card-foreground',
  success: 'border-primary/40 bg-card text-card-foreground [&_[data-toast-title]]:text-primary',
  destructive: 'border-destructive bg-destructive text-destructive-foreground',
} as const;

export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION} label="Notifikasi">
      {toasts.map(({ id, title, description, variant = 'default', duration, action, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          data-toast=""
          data-variant={variant}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-9 shadow-lg data-[state=closed]:hidden',
            variants[variant],
          )}
        >
          <div className="grid gap-1">
            {title && (
              <ToastPrimitive.Title data-toast-title="" className="text-sm font-semibold">
                {title}
              </ToastPrimitive.Title>
            )}
            {description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {description}
              </ToastPrimitive.Description>
            )}
          </div>
          {action}
          <ToastPrimitive.Close
            aria-label="Tutup notifikasi"
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        label="Notifikasi ({hotkey})"
        className="fixed top-(--shell-header-height) z-[100] flex max-h-[calc(100vh-var(--shell-header-height))] w-full flex-col-reverse gap-2 p-4 outline-none sm:bottom-0 sm:right-0 sm:top-auto sm:max-h-screen sm:max-w-sm sm:flex-col"
      />
    </ToastPrimitive.Provider>
  );
}
