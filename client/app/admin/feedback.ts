// How the admin screens report a list that failed to load: SPEC section 8's load toast.
import { useEffect } from 'react';
import { toastLoadError } from '#client/components/ui/toast.ts';
import { ApiError, failureText } from '#client/lib/api-client.ts';

/**
 * Shows SPEC's load-failure toast (e.g. 'Gagal memuat catatan') once per failed fetch, with the
 * reason when there is one (the server's detail, or that it cannot be reached). A refused token is
 * left out: the session ends and the sign-in page says why.
 */
export function useLoadErrorToast(
  query: { isError: boolean; error: unknown; errorUpdatedAt: number },
  message: string,
): void {
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (!isError) return;
    console.error(message, error);
    if (error instanceof ApiError && error.status === 401) return;
    toastLoadError(failureText(error, message));
    // errorUpdatedAt changes on every new failure, so a retry that fails again toasts again.
  }, [isError, errorUpdatedAt, message, error]);
}
