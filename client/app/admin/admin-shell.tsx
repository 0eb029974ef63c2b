// The admin shell (super_admin): sidebar, header and the eight admin routes. Loaded lazily.
import type { ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useMe } from '../../features/auth/api.ts';
import { lazyComponent } from '../../lib/load-once.tsx';
import { useSession } from '../../lib/session.ts';
import { ADMIN_PAGES, preloadPage } from '../pages.ts';
import { ADMIN_ROUTES, titleFor, type AdminPath } from '../routes.ts';
import { Avatar, Brand, ShellLayout, SidebarAccount } from '../shell/shell-layout.tsx';
import { useSignOut } from '../shell/use-sign-out.ts';

// Each screen is its own chunk (pages.ts): the dashboard does not download the forms' code.
const PAGES = Object.fromEntries(
  Object.entries(ADMIN_PAGES).map(([path, load]) => [path, lazyComponent(load)]),
) as Record<AdminPath, ComponentType>;
const preload = (pathname: string) => preloadPage(ADMIN_PAGES, pathname);

export default function AdminShell() {
  const session = useSession();
  const me = useMe();
  const signOut = useSignOut();
  const location = useLocation();
  const username = me.data?.username ?? session?.user.username ?? '';

  return (
    <ShellLayout
      navLabel="Menu admin"
      preload={preload}
      routes={ADMIN_ROUTES}
      title={titleFor(ADMIN_ROUTES, location.pathname)}
      sidebarTop={<Brand subtitle="Panel Admin" />}
      sidebarBottom={
        <SidebarAccount username={username} role="Super Administrator" onSignOut={signOut} />
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
