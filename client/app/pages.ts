// Where each screen's code is: the shells and the screens are chunks of their own, downloaded by
// route. Nothing here imports a shell or a screen statically, and neither imports this file; the
// signed-in area's router reads this table (start.ts downloads the area itself).
import type { ComponentType } from 'react';
import type { Role } from '#common/auth.ts';
import type { AdminPath, ClientPath } from './routes.ts';

export type PageModule = Promise<{ default: ComponentType }>;

export const loadAdminShell = (): PageModule => import('./admin/admin-shell.tsx');
export const loadClientShell = (): PageModule => import('./client-area/client-shell.tsx');

export const ADMIN_PAGES: Record<AdminPath, () => PageModule> = {
  '/': () => import('./admin/pages/dashboard.tsx'),
  '/contacts': () => import('./admin/pages/contacts.tsx'),
  '/notes': () => import('./admin/pages/notes.tsx'),
  '/settings': () => import('./admin/pages/settings.tsx'),
  '/delivery': () => import('./admin/pages/delivery.tsx'),
  '/opt-outs': () => import('./admin/pages/opt-outs.tsx'),
  '/pricing': () => import('./admin/pages/pricing.tsx'),
  '/point-requests': () => import('./admin/pages/point-requests.tsx'),
  '/blast-results': () => import('./admin/pages/blast-results.tsx'),
  '/users': () => import('./admin/pages/users.tsx'),
  '/password': () => import('./admin/pages/password.tsx'),
};

export const CLIENT_PAGES: Record<ClientPath, () => PageModule> = {
  '/': () => import('./client-area/pages/dashboard.tsx'),
  '/blast-form': () => import('./client-area/pages/blast-form.tsx'),
  '/contacts': () => import('./client-area/pages/contacts.tsx'),
  '/topup': () => import('./client-area/pages/topup.tsx'),
  '/blast-results': () => import('./client-area/pages/blast-results.tsx'),
  '/topup-history': () => import('./client-area/pages/topup-history.tsx'),
  '/point-history': () => import('./client-area/pages/point-history.tsx'),
  '/password': () => import('./client-area/pages/password.tsx'),
};

/** The screen at `pathname` (a trailing slash ignored, as the router does), if there is one. */
export function pageAt(role: Role, pathname: string): (() => PageModule) | undefined {
  const pages: Record<string, () => PageModule> =
    role === 'super_admin' ? ADMIN_PAGES : CLIENT_PAGES;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return Object.hasOwn(pages, path) ? pages[path] : undefined;
}

// A download started early that fails is not reported here: the route meets the failure and
// shows the load error.
const ignoreFailure = () => undefined;

/** Starts downloading the screen a link leads to (nothing for an address without a screen). */
export function preloadPage(role: Role, pathname: string): void {
  pageAt(role, pathname)?.().catch(ignoreFailure);
}
