// The one TanStack Query client: no retries on answers the server meant (4xx).
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** SPEC's refresh cadence (the client dashboard's 30 seconds), used for every screen that polls. */
export const REFRESH_MS = 30_000;

/** A list's refetchInterval: every REFRESH_MS while it shows an entry still pending, else never. */
export const refreshWhilePending = (items: readonly { status: string }[] | undefined) =>
  items?.some((item) => item.status === 'pending') ? REFRESH_MS : false;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/**
 * A mutation's list refresh: awaited after a success, so the screen shows the change together
 * with its toast; started but not awaited after a failure, whose toast must not wait for the
 * list's own retries (seconds when the server cannot be reached).
 */
export function refreshAfter(refresh: () => Promise<unknown>) {
  return {
    onSuccess: () => refresh(),
    onError: () => void refresh(),
  };
}
