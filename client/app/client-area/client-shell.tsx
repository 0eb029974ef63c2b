// The client shell (any role but super_admin): balance, theme toggle and the seven client routes.
import { useQueryClient } from '@tanstack/react-query';
import { Coins, Moon, Sun } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Button } from '#client/components/ui/button.tsx';
import { meQueryKey, useMe } from '#client/features/auth/api.ts';
import { formatNumber } from '#client/lib/format.ts';
import { REFRESH_MS } from '#client/lib/query-client.ts';
import { useSession } from '#client/lib/session.ts';
import { applyTheme, useTheme } from '#client/lib/theme.ts';
import { CLIENT_ROUTES, titleFor } from '#client/app/routes.ts';
import { Brand, ShellLayout, SidebarAccount } from '#client/app/shell/shell-layout.tsx';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { useSignOut } from '#client/app/shell/use-sign-out.ts';

/**
 * Re-reads the balance (['me']) when the client moves to another screen, comes back to the tab,
 * and every 30 seconds while the tab is shown: an admin's approval, refund or edit happens
 * elsewhere, and the shell stays mounted across screens. A read already under way is cancelled and
 * sent again: it left before the event, so its answer may predate the change the client came for.
 */
function useFreshBalance(pathname: string) {
  const queryClient = useQueryClient();
  const shownPath = useRef(pathname);
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: meQueryKey });
    if (shownPath.current !== pathname) {
      shownPath.current = pathname;
      refresh();
    }
    const onVisible = () => document.visibilityState === 'visible' && refresh();
    document.addEventListener('visibilitychange', onVisible);
    const timer = window.setInterval(onVisible, REFRESH_MS);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.clearInterval(timer);
    };
  }, [pathname, queryClient]);
}

export default function ClientShell() {
  const session = useSession();
  const me = useMe();
  const signOut = useSignOut();
  const location = useLocation();
  const { theme, toggleTheme } = useTheme();
  useFreshBalance(location.pathname);
  const user = me.data ?? session?.user;
  const username = user?.username ?? '';
  const points = formatNumber(user?.points ?? 0);

  // The theme belongs to the client area: applied here, taken off when the shell goes away.
  useEffect(() => {
    applyTheme(theme);
  }, [theme]);
  useEffect(() => () => applyTheme('light'), []);

  return (
    <ShellLayout
      navLabel="Menu klien"
      routes={CLIENT_ROUTES}
      title={titleFor(CLIENT_ROUTES, location.pathname)}
      sidebarTop={
        <>
          <Brand subtitle="WhatsApp Blast" />
          <div className="rounded-xl bg-primary p-4 text-primary-foreground shadow-sm">
            <p className="flex items-center gap-2 text-xs font-medium opacity-90">
              <Coins aria-hidden className="size-4" />
              Poin Tersedia
            </p>
            <p className="mt-1 text-2xl font-bold" data-balance="">
              {points}
            </p>
          </div>
        </>
      }
      sidebarBottom={<SidebarAccount username={username} role="Client" onSignOut={signOut} />}
      headerEnd={
        <>
          <Button
            variant="ghost"
            size="icon"
            className="max-sm:size-8"
            onClick={toggleTheme}
            aria-label={theme === 'dark' ? 'Aktifkan mode terang' : 'Aktifkan mode gelap'}
          >
            {theme === 'dark' ? <Sun aria-hidden /> : <Moon aria-hidden />}
          </Button>
          <div className="min-w-0 max-w-28 text-right sm:max-w-48">
            <p className="truncate text-sm font-semibold leading-tight" title={username}>
              {username}
            </p>
            <p className="truncate text-xs text-muted-foreground">
              {points} poin<span className="max-sm:sr-only"> tersedia</span>
            </p>
          </div>
          <Avatar name={username} className="max-sm:size-8" />
        </>
      }
    >
      <Outlet />
    </ShellLayout>
  );
}
