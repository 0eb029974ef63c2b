// The signed-in area, loaded after sign-in: data fetching, the router and the shell of the role.
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import type { Role } from '../../common/auth.ts';
import { lazyComponent } from '../lib/load-once.tsx';
import { queryClient } from '../lib/query-client.ts';
import { getSession, subscribeSession } from '../lib/session.ts';
import { loadAdminShell, loadClientShell } from './pages.ts';

// Separate chunks: a client never downloads the admin screens, nor an admin the client's.
const AdminShell = lazyComponent(loadAdminShell);
const ClientShell = lazyComponent(loadClientShell);

// Signing out (or an expired session) drops every cached answer of the previous user.
subscribeSession(() => {
  if (getSession() === null) queryClient.clear();
});

export default function SignedIn({ role }: { role: Role }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>{role === 'super_admin' ? <AdminShell /> : <ClientShell />}</BrowserRouter>
    </QueryClientProvider>
  );
}
