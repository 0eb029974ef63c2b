// Signing in: the API call, the session it saves, and the messages the sign-in form shows.
import { useState } from 'react';
import type { Login, LoginResponse } from '#common/auth.ts';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { api, errorMessage } from '#client/lib/api-client.ts';
import { navigate } from '#client/lib/navigation.ts';
import { saveSession, takeSessionNotice } from '#client/lib/session.ts';

export type SignIn = ReturnType<typeof useSignIn>;

export function useSignIn() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Why the last session ended (expired, revoked): shown until the user types or submits.
  const [notice, setNotice] = useState<string | null>(() => takeSessionNotice());

  const clearMessages = () => {
    setError(null);
    setNotice(null);
  };

  const signIn = async (login: Login) => {
    clearMessages();
    try {
      setPending(true);
      const answer = await api.post<LoginResponse>('/auth/login', login, { auth: false });
      saveSession({ token: answer.access_token, user: answer.user });
      toastSuccess(`Selamat datang, ${answer.user.username}!`, 'Login berhasil');
      navigate('/', { replace: true });
    } catch (failure) {
      const message = errorMessage(failure, 'Login gagal');
      setError(message);
      toastError(message, 'Login gagal');
    } finally {
      setPending(false);
    }
  };

  return { pending, error, notice, clearMessages, signIn };
}
