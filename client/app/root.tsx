// /*: the admin shell for super_admin, the client shell for any other role, /login otherwise.
import { Suspense, use, useEffect, useState } from 'react';
import type { Role } from '../../common/auth.ts';
import { LoadErrorBoundary } from '../components/ui/load-error.tsx';
import { PageSpinner } from '../components/ui/spinner.tsx';
import { navigate } from '../lib/navigation.ts';
import { useSession } from '../lib/session.ts';
import { loadSignedInArea } from './pages.ts';

export function RootGate() {
  const session = useSession();
  useEffect(() => {
    if (session === null) navigate('/login', { replace: true });
  }, [session]);
  if (!session) return <PageSpinner className="min-h-screen" />;
  return (
    <LoadErrorBoundary className="grid min-h-screen place-items-center">
      <Suspense fallback={<PageSpinner className="min-h-screen" />}>
        <SignedInArea role={session.user.role} />
      </Suspense>
    </LoadErrorBoundary>
  );
}

/** The sign-in page downloads none of this: it comes with the shell and the first screen. */
function SignedInArea({ role }: { role: Role }) {
  // The address at first render names the screen to wait for; later moves are the shell's.
  const [pathname] = useState(() => window.location.pathname);
  const { default: SignedIn } = use(loadSignedInArea(role, pathname));
  return <SignedIn role={role} />;
}
