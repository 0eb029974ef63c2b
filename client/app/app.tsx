// The application root: /login or the signed-in area, and the one toaster.
import { Toaster } from '#client/components/ui/toast.ts';
import { usePathname } from '#client/lib/navigation.ts';
import LoginPage from './login/login-page.tsx';
import { RootGate } from './root.tsx';

export function App() {
  const pathname = usePathname();
  return (
    <>
      {pathname === '/login' ? <LoginPage /> : <RootGate />}
      <Toaster />
    </>
  );
}
