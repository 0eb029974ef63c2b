// Dialog (Radix): modal, focus trapped, Esc closes, labelled by its DialogTitle; focus goes back to
// the button that opened it.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { createContext, useContext, useRef, type ComponentProps, type KeyboardEvent } from 'react';
import { cn } from '#client/lib/cn.ts';
import { CONTROL, controlNear } from './focus-place.ts';

/** How DialogContent closes its dialog: the Root's onOpenChange(false). */
const CloseDialog = createContext<() => void>(() => undefined);

export function Dialog({ onOpenChange, ...props }: ComponentProps<typeof DialogPrimitive.Root>) {
  return (
    <CloseDialog value={() => onOpenChange?.(false)}>
      <DialogPrimitive.Root onOpenChange={onOpenChange} {...props} />
    </CloseDialog>
  );
}
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClass = 'fixed inset-0 z-50 bg-black/50 backdrop-blur-[1px]';
export const contentClass =
  'fixed left-1/2 top-1/2 z-50 grid max-h-[90vh] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-5 text-card-foreground shadow-xl focus:outline-none sm:p-6';

export interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** Hide the corner close button (the footer has its own). */
  hideClose?: boolean;
}

type AutoFocusHandler = (event: Event) => void;

/**
 * Where the focus goes back to when a dialog closes: what opened it, that one's table row, and the
 * dialog it was in (a confirmation opened from a dialog that stays open).
 */
interface ReturnPlace {
  opener: HTMLElement | null;
  row: HTMLElement | null;
  dialog: HTMLElement | null;
}

const NOWHERE: ReturnPlace = { opener: null, row: null, dialog: null };

/** The return places of the dialogs open now, the innermost last. */
const openDialogs: ReturnPlace[] = [];

/**
 * Radix focuses the dialog's first control. When that lies below the dialog's visible area (a long
 * dialog on a phone), the dialog itself takes the focus instead: it opens at its top with the focus
 * in view, and Tab goes on to that control.
 */
function keepFirstFocusInView(event: Event) {
  const dialog = event.target;
  if (!(dialog instanceof HTMLElement)) return;
  const first = dialog.querySelector(CONTROL);
  if (first && first.getBoundingClientRect().bottom > dialog.getBoundingClientRect().bottom) {
    event.preventDefault();
    dialog.focus({ preventScroll: true });
  }
}

/**
 * The opener; when it has gone (the row's action changed: 'Input Hasil' became 'Edit Hasil'), the
 * first control of its table row or, when that row has none left (an approved request), of the
 * next row that has one, else of the one before: the keyboard user keeps their place. When the
 * opener was in a dialog that is still open, that dialog; else the page's main area.
 */
function focusBack({ opener, row, dialog }: ReturnPlace) {
  const target = opener?.isConnected
    ? opener
    : row?.isConnected
      ? (row.querySelector<HTMLElement>(CONTROL) ?? controlNear(row))
      : null;
  const fallback = dialog?.isConnected ? dialog : document.getElementById('main');
  (target ?? fallback)?.focus();
}

/**
 * Radix returns focus only to its own DialogTrigger; our dialogs are opened by state from any
 * button (a table row's Edit ...). This remembers what had focus when the dialog opened and
 * focuses it again on close (see focusBack). A dialog opened from a dialog that has just closed (a
 * confirmation leading to a form) finds nothing focused: it returns where that one would have.
 * It also keeps the dialog's first focus in view (keepFirstFocusInView).
 */
export function useFocusReturn(handlers: {
  onOpenAutoFocus?: AutoFocusHandler;
  onCloseAutoFocus?: AutoFocusHandler;
}) {
  const place = useRef<ReturnPlace>(NOWHERE);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      place.current =
        active instanceof HTMLElement && active !== document.body
          ? {
              opener: active,
              row: active.closest('tr'),
              dialog: active.closest<HTMLElement>('[role=dialog], [role=alertdialog]'),
            }
          : { ...(openDialogs.at(-1) ?? NOWHERE) };
      openDialogs.push(place.current);
      handlers.onOpenAutoFocus?.(event);
      if (!event.defaultPrevented) keepFirstFocusInView(event);
    },
    onCloseAutoFocus: (event: Event) => {
      const index = openDialogs.indexOf(place.current);
      if (index >= 0) openDialogs.splice(index, 1);
      handlers.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      event.preventDefault();
      focusBack(place.current);
    },
  };
}

/**
 * A dialog's keydown handler: Escape closes it even when a toast that appeared after it holds
 * Radix's top layer. That toast takes the key for itself (it closes) and leaves the press
 * unhandled, so the dialog's own listener, which only the top layer gets, never hears it. A press a
 * layer did handle (the dialog itself, a Select open inside it) arrives marked and is left alone.
 */
export function closeOnUnhandledEscape(close: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close();
  };
}

/** Without a DialogDescription inside, pass aria-describedby={undefined}. */
export function DialogContent({
  className,
  children,
  hideClose,
  onOpenAutoFocus,
  onCloseAutoFocus,
  onKeyDown,
  onFocus,
  ...props
}: DialogContentProps) {
  const focusReturn = useFocusReturn({ onOpenAutoFocus, onCloseAutoFocus });
  const escape = closeOnUnhandledEscape(useContext(CloseDialog));
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClass} />
      <DialogPrimitive.Content
        className={cn(contentClass, className)}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          escape(event);
        }}
        onFocus={(event) => {
          onFocus?.(event);
          // Radix moves focus without scrolling (its first focus, Tab wrapping round the dialog):
          // the focused control is brought into the dialog's view all the same.
          if (event.target !== event.currentTarget)
            event.target.scrollIntoView({ block: 'nearest' });
        }}
        {...props}
        {...focusReturn}
      >
        {children}
        {!hideClose && (
          <DialogPrimitive.Close
            className="absolute right-3 top-3 rounded-md p-1.5 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label="Tutup"
          >
            <X aria-hidden className="size-4" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pr-6 text-left', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      className={cn('text-lg font-semibold leading-tight', className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}
