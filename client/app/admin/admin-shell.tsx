// The admin shell (super_admin): sidebar, header and the eight admin routes. Loaded lazily.
import { LogOut } from 'lucide-react';
import type { ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { useMe } from '../../features/auth/api.ts';
import { useSession } from '../../lib/session.ts';
import { ADMIN_ROUTES, titleFor, type AdminPath } from '../routes.ts';
import { Avatar, Brand, ShellLayout } from '../shell/shell-layout.tsx';
import { useSignOut } from '../shell/use-sign-out.ts';
import AdminBlastResultsPage from './pages/blast-results.tsx';
import AdminContactsPage from './pages/contacts.tsx';
import AdminDashboardPage from './pages/dashboard.tsx';
import AdminNotesPage from './pages/notes.tsx';
import AdminPointRequestsPage from './pages/point-requests.tsx';
import AdminPricingPage from './pages/pricing.tsx';
import AdminSettingsPage from './pages/settings.tsx';
import AdminUsersPage from './pages/users.tsx';

const PAGES: Record<AdminPath, ComponentType> = {
  '/': AdminDashboardPage,
  '/contacts': AdminContactsPage,
  '/notes': AdminNotesPage,
  '/settings': AdminSettingsPage,
  '/pricing': AdminPricingPage,
  '/point-requests': AdminPointRequestsPage,
  '/blast-results': AdminBlastResultsPage,
  '/users': AdminUsersPage,
};

export default function AdminShell() {
  const session = useSession();
  const me = useMe();
  const signOut = useSignOut();
  const location = useLocation();
  const username = me.data?.username ?? session?.user.username ?? '';

  return (
    <ShellLayout
      navLabel="Menu admin"
      routes={ADMIN_ROUTES}
      title={titleFor(ADMIN_ROUTES, location.pathname)}
      sidebarTop={<Brand subtitle="Panel Admin" />}
      sidebarBottom={
        <div className="grid gap-3 border-t pt-4">
          <div className="flex items-center gap-3 px-1">
            <Avatar name={username} />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold">{username}</p>
              <p className="text-xs text-muted-foreground">Super Administrator</p>
            </div>
          </div>
          <Button variant="outline" className="w-full justify-start" onClick={signOut}>
            <LogOut aria-hidden />
            Keluar
          </Button>
        </div>
      }
      headerEnd={
        <>
          <div className="min-w-0 max-w-28 text-right sm:max-w-48">
            <p className="truncate text-sm font-semibold leading-tight" title={username}>
              {username}
            </p>
            <p className="truncate text-xs text-muted-foreground">Super Admin</p>
          </div>
          <Avatar name={username} />
        </>
      }
    >
      <Routes>
        {ADMIN_ROUTES.map(({ path }) => {
          const Page = PAGES[path];
          return <Route key={path} path={path} element={<Page />} />;
        })}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </ShellLayout>
  );
}
