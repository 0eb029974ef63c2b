// Logs a failed load to the console only (SPEC section 8: these failures show no user message).
import { useEffect } from 'react';

export function useConsoleError(error: unknown, what: string): void {
  useEffect(() => {
    if (error) console.error(`Gagal memuat ${what}:`, error);
  }, [error, what]);
}
