// /*: the admin shell for super_admin, the client shell for any other role, /login otherwise.
import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router';
import { PageSpinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session.ts';

// Separate chunks: the sign-in page downloads neither shell.
const AdminShell = lazy(() => import('./admin/admin-shell.tsx'));
const ClientShell = lazy(() => import('./client-area/client-shell.tsx'));

export function RootGate() {
  const session = useSession();
  if (session === undefined) return <PageSpinner className="min-h-screen" />;
  if (session === null) return <Navigate to="/login" replace />;
  return (
    <Suspense fallback={<PageSpinner className="min-h-screen" />}>
      {session.user.role === 'super_admin' ? <AdminShell /> : <ClientShell />}
    </Suspense>
  );
}
