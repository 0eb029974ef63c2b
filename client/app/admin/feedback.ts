// How the admin screens report failures: the load toast of SPEC section 8 and failure texts.
import { useEffect } from 'react';
import { toastError } from '../../components/ui/toast.ts';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Shows SPEC's load-failure toast (e.g. 'Gagal memuat catatan') once per failed fetch. A refused
 * token is left out: the session ends and the sign-in page says why.
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
    toastError(message);
    // errorUpdatedAt changes on every new failure, so a retry that fails again toasts again.
  }, [isError, errorUpdatedAt, message, error]);
}

/**
 * SPEC's failure text, followed by the server's reason when it gave one (a conflict, an overlap),
 * so the words SPEC quotes are always there and the admin still learns why.
 */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? `${fallback}: ${error.detail}` : fallback;
}
