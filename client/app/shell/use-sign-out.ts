// Keluar: forget the session (and with it every cached answer), then go to /login.
import { useCallback } from 'react';
import { navigate } from '../../lib/navigation.ts';
import { clearSession } from '../../lib/session.ts';

export function useSignOut(): () => void {
  return useCallback(() => {
    clearSession();
    navigate('/login', { replace: true });
  }, []);
}
