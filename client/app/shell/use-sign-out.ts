// Keluar: end the session on the server, forget it here (and with it every cached answer), then
// go to /login. The page does not wait for the server: an unreachable server still lets the user
// leave this device, and the token is sent along with the request before it is forgotten.
import { useCallback } from 'react';
import { api } from '#client/lib/api-client.ts';
import { navigate } from '#client/lib/navigation.ts';
import { clearSession, getSession } from '#client/lib/session.ts';

export function useSignOut(): () => void {
  return useCallback(() => {
    const token = getSession()?.token;
    if (token) {
      // auth: false with the token given here: a refusal (already ended) signs nothing out again.
      api
        .post('/auth/logout', undefined, {
          auth: false,
          headers: { authorization: `Bearer ${token}` },
        })
        .catch(() => undefined);
    }
    clearSession();
    navigate('/login', { replace: true });
  }, []);
}
