// The application root: /login or the signed-in area, and the one toaster.
import { Toaster } from '../components/ui/toast.ts';
import { usePathname } from '../lib/navigation.ts';
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
