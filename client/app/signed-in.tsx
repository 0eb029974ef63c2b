// The signed-in area, loaded after sign-in: data fetching, the router and the shell of the role.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { Role } from '#common/auth.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { meQuery } from '#client/features/auth/api.ts';
import { adminDashboardQuery } from '#client/features/dashboard/admin-api.ts';
import { clientDashboardQuery } from '#client/features/dashboard/client-api.ts';
import { deliveryQueueQuery } from '#client/features/delivery/queue-api.ts';
import { pricingQuery } from '#client/features/pricing/client-api.ts';
import { publicSettingsQuery } from '#client/features/settings/client-api.ts';
import { queryClient } from '#client/lib/query-client.ts';
import { getSession, subscribeSession } from '#client/lib/session.ts';
import {
  ADMIN_PAGES,
  CLIENT_PAGES,
  loadAdminShell,
  loadClientShell,
  preloadPage,
  type PageModule,
} from './pages.ts';

/** A loader that starts the screen's first requests as its code downloads, without waiting. */
function prefetch(...queries: (() => Promise<void>)[]) {
  return () => {
    for (const query of queries) void query();
    return null;
  };
}
// What a loader fetched while the screen's code downloaded is not asked for again as the screen
// mounts: these answers count as fresh for 2 s (every other query, and a later visit, asks anew).
for (const { queryKey } of [
  meQuery,
  adminDashboardQuery,
  deliveryQueueQuery,
  clientDashboardQuery,
  pricingQuery,
  publicSettingsQuery,
]) {
  queryClient.setQueryDefaults(queryKey, { staleTime: 2_000 });
}
const me = () => queryClient.prefetchQuery(meQuery);
const adminDashboard = () => queryClient.prefetchQuery(adminDashboardQuery);
// The dashboard says when sending has stopped (EngineNotice).
const deliveryQueue = () => queryClient.prefetchQuery(deliveryQueueQuery);
const clientDashboard = () => queryClient.prefetchQuery(clientDashboardQuery);
const pricing = () => queryClient.prefetchQuery(pricingQuery);
const publicSettings = () => queryClient.prefetchQuery(publicSettingsQuery);

/** A screen that could not be shown: the load error in its place, the shell around it stays. */
const ScreenError = () => <LoadError />;
const PageError = () => <LoadError className="grid min-h-screen place-items-center" />;

/**
 * Only the component is lazy, so the router runs the route's loader while it downloads. Code
 * that does not come is the load error in its place (whose Muat Ulang loads the page anew).
 */
const lazyComponent = (load: () => PageModule, failed: ComponentType = ScreenError) => ({
  Component: () =>
    load().then(
      (module) => module.default,
      () => failed,
    ),
});

/** One route per screen, in the shell of `loadShell`; `data` names what a screen first shows. */
function areaRoutes<P extends string>(
  loadShell: () => PageModule,
  pages: Record<P, () => PageModule>,
  data: Partial<Record<P, () => null>>,
  fallback: RouteObject,
): RouteObject[] {
  const screens = Object.entries<() => PageModule>(pages).map(([path, load]) => ({
    ...(path === '/' ? { index: true } : { path }),
    lazy: lazyComponent(load),
    loader: data[path as P],
    ErrorBoundary: ScreenError,
  }));
  return [
    {
      path: '/',
      lazy: lazyComponent(loadShell, PageError),
      loader: prefetch(me),
      HydrateFallback: () => <PageSpinner className="min-h-screen" />,
      ErrorBoundary: PageError,
      children: [...screens, { ...fallback, path: '*', ErrorBoundary: ScreenError }],
    },
  ];
}

const ROUTES: Record<'admin' | 'client', () => RouteObject[]> = {
  // An unknown address leads an administrator to the dashboard.
  admin: () =>
    areaRoutes(
      loadAdminShell,
      ADMIN_PAGES,
      { '/': prefetch(adminDashboard, deliveryQueue) },
      { loader: () => redirect('/') },
    ),
  // A client sees the dashboard at an unknown address.
  client: () =>
    areaRoutes(
      loadClientShell,
      CLIENT_PAGES,
      {
        '/': prefetch(clientDashboard),
        '/blast-form': prefetch(publicSettings),
        '/topup': prefetch(pricing, publicSettings),
      },
      { lazy: lazyComponent(CLIENT_PAGES['/']), loader: prefetch(clientDashboard) },
    ),
};

/** The router of the signed-in session: made for its role, ended when the session ends. */
let current: { role: Role; router: ReturnType<typeof createBrowserRouter> } | undefined;

/**
 * Makes the session's router as soon as this code is there (main.tsx, before the first render):
 * its loaders ask for the first screen's data while the shell's and the screen's code download.
 */
export function routerFor(role: Role) {
  if (current?.role !== role) {
    current?.router.dispose();
    const routes = ROUTES[role === 'super_admin' ? 'admin' : 'client']();
    current = { role, router: createBrowserRouter(routes) };
  }
  return current.router;
}

// Signing out (or an expired session) drops every cached answer of the previous user, and the
// router stops following the address (the sign-in page has it).
subscribeSession(() => {
  if (getSession() !== null) return;
  queryClient.clear();
  current?.router.dispose();
  current = undefined;
});

/**
 * A screen's code downloads when a link to it is about to be followed (pointer on it, touch,
 * keyboard focus), so the move seldom waits for it; the router keeps the old screen meanwhile.
 */
function usePreloadOnLinkIntent(role: Role) {
  useEffect(() => {
    const onIntent = (event: Event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (link instanceof HTMLAnchorElement && link.origin === window.location.origin) {
        preloadPage(role, link.pathname);
      }
    };
    const events = ['pointerover', 'touchstart', 'focusin'] as const;
    for (const name of events) document.addEventListener(name, onIntent, { passive: true });
    return () => {
      for (const name of events) document.removeEventListener(name, onIntent);
    };
  }, [role]);
}

export default function SignedIn({ role }: { role: Role }) {
  usePreloadOnLinkIntent(role);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={routerFor(role)} />
    </QueryClientProvider>
  );
}
