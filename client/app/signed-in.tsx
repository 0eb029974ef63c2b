// The signed-in area, loaded after sign-in: data fetching, the router and the shell of the role.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy } from 'react';
import { BrowserRouter } from 'react-router';
import type { Role } from '../../common/auth.ts';
import { queryClient } from '../lib/query-client.ts';
import { getSession, subscribeSession } from '../lib/session.ts';

// Separate chunks: a client never downloads the admin screens, nor an admin the client's.
const AdminShell = lazy(() => import('./admin/admin-shell.tsx'));
const ClientShell = lazy(() => import('./client-area/client-shell.tsx'));

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
