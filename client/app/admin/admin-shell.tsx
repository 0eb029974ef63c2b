// The admin shell (super_admin): sidebar, header and the admin screen in its page area.
import { Outlet, useLocation } from 'react-router';
import { useMe } from '#client/features/auth/api.ts';
import { useSession } from '#client/lib/session.ts';
import { ADMIN_ROUTES, titleFor } from '#client/app/routes.ts';
import { Brand, ShellLayout, SidebarAccount } from '#client/app/shell/shell-layout.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { useSignOut } from '#client/app/shell/use-sign-out.ts';

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
      <Outlet />
    </ShellLayout>
  );
}
