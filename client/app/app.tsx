// The application root: /login or the signed-in area, and the one toaster.
import { useEffect } from 'react';
import { Toaster } from '../components/ui/toast.ts';
import { usePathname } from '../lib/navigation.ts';
import { loadSession } from '../lib/session.ts';
import LoginPage from './login/login-page.tsx';
import { RootGate } from './root.tsx';

export function App() {
  // Read after the first paint, so the spinner shows while the saved session is read.
  useEffect(loadSession, []);
  const pathname = usePathname();
  return (
    <>
      {pathname === '/login' ? <LoginPage /> : <RootGate />}
      <Toaster />
    </>
  );
}
