// /*: the admin shell for super_admin, the client shell for any other role, /login otherwise.
import { lazy, Suspense, useEffect } from 'react';
import { LoadErrorBoundary } from '#client/components/ui/load-error.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { navigate } from '#client/lib/navigation.ts';
import { useSession } from '#client/lib/session.ts';
import { loadSignedInArea } from './start.ts';

/** The sign-in page downloads none of this: the router, the data layer and the shells. */
const SignedIn = lazy(loadSignedInArea);

export function RootGate() {
  const session = useSession();
  useEffect(() => {
    if (session === null) navigate('/login', { replace: true });
  }, [session]);
  if (!session) return <PageSpinner className="min-h-screen" />;
  return (
    <LoadErrorBoundary className="grid min-h-screen place-items-center">
      <Suspense fallback={<PageSpinner className="min-h-screen" />}>
        <SignedIn role={session.user.role} />
      </Suspense>
    </LoadErrorBoundary>
  );
}
