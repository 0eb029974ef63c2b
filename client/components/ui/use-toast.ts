// The one toast store: one visible at a time (SPEC), removed 1,000,000 ms after dismissal.
import { useSyncExternalStore, type ReactNode } from 'react';

export const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_REMOVE_DELAY = 1_000_000;

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: 'default' | 'destructive' | 'success';
  /** Milliseconds; default 5000. */
  duration?: number;
  action?: ReactNode;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
  /** A list's load failure, which gives way to the failure of something the user did. */
  load?: boolean;
}

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      setToasts(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string): void {
  for (const item of toasts) if (!id || item.id === id) scheduleRemoval(item.id);
  setToasts(toasts.map((item) => (!id || item.id === id ? { ...item, open: false } : item)));
}

function show(item: Omit<ToastItem, 'id' | 'open'>): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  setToasts([{ ...item, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Shows a toast (replacing the one on screen); returns its id and a dismiss function. */
export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  return show(options);
}

/** A failure: destructive toast titled 'Error' unless SPEC names another title. */
export function toastError(description: ReactNode, title: ReactNode = 'Error') {
  return toast({ variant: 'destructive', title, description });
}

/**
 * A list that could not load or refresh: a destructive toast titled 'Error', unless the failure
 * of something the user did is on screen. With one toast at a time, a background refresh failing
 * a moment later would otherwise replace the only message saying that the action failed.
 */
export function toastLoadError(description: ReactNode) {
  if (toasts.some((item) => item.open && item.variant === 'destructive' && !item.load)) return;
  show({ variant: 'destructive', title: 'Error', description, load: true });
}

/** A success: toast titled 'Berhasil' unless SPEC names another title. */
export function toastSuccess(description: ReactNode, title: ReactNode = 'Berhasil') {
  return toast({ variant: 'success', title, description });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const snapshot = () => toasts;

export function useToast() {
  const items = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { toasts: items, toast, toastError, toastSuccess, dismiss: dismissToast };
}
