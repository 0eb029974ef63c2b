// Where the signed-in area's code is. Each screen is its own chunk, downloaded on first use (or as
// soon as a link to it is pointed at); at start-up the area, the role's shell and the screen at
// the address are fetched together, so no chunk waits for another to run first.
import type { Role } from '../../common/auth.ts';
import { loadOnce, type ModuleLoad } from '../lib/load-once.tsx';
import type { AdminPath, ClientPath } from './routes.ts';

export const ADMIN_PAGES: Record<AdminPath, ModuleLoad> = {
  '/': () => import('./admin/pages/dashboard.tsx'),
  '/contacts': () => import('./admin/pages/contacts.tsx'),
  '/notes': () => import('./admin/pages/notes.tsx'),
  '/settings': () => import('./admin/pages/settings.tsx'),
  '/pricing': () => import('./admin/pages/pricing.tsx'),
  '/point-requests': () => import('./admin/pages/point-requests.tsx'),
  '/blast-results': () => import('./admin/pages/blast-results.tsx'),
  '/users': () => import('./admin/pages/users.tsx'),
  '/password': () => import('./admin/pages/password.tsx'),
};

export const CLIENT_PAGES: Record<ClientPath, ModuleLoad> = {
  '/': () => import('./client-area/pages/dashboard.tsx'),
  '/blast-form': () => import('./client-area/pages/blast-form.tsx'),
  '/contacts': () => import('./client-area/pages/contacts.tsx'),
  '/topup': () => import('./client-area/pages/topup.tsx'),
  '/blast-results': () => import('./client-area/pages/blast-results.tsx'),
  '/topup-history': () => import('./client-area/pages/topup-history.tsx'),
  '/point-history': () => import('./client-area/pages/point-history.tsx'),
  '/password': () => import('./client-area/pages/password.tsx'),
};

const loadArea = () => import('./signed-in.tsx');
export const loadAdminShell: ModuleLoad = () => import('./admin/admin-shell.tsx');
export const loadClientShell: ModuleLoad = () => import('./client-area/client-shell.tsx');

/** The table key of `pathname` (a trailing slash ignored, as the router does), if it has one. */
function pageKey(pages: Record<string, ModuleLoad>, pathname: string): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return Object.hasOwn(pages, path) ? path : undefined;
}

/** Starts downloading the screen at `pathname` (nothing when the table has no such screen). */
export function preloadPage(pages: Record<string, ModuleLoad>, pathname: string): void {
  const key = pageKey(pages, pathname);
  if (key !== undefined) void loadOnce(pages[key]!);
}

/**
 * The signed-in area (signed-in.tsx) once it, the role's shell and the screen the shell shows at
 * `pathname` (an unknown path: the dashboard) are all downloaded, fetched in parallel.
 */
export function loadSignedInArea(role: Role, pathname: string) {
  const admin = role === 'super_admin';
  const pages: Record<string, ModuleLoad> = admin ? ADMIN_PAGES : CLIENT_PAGES;
  const page = pageKey(pages, pathname) ?? '/';
  return loadOnce(
    () =>
      Promise.all([
        loadOnce(loadArea),
        loadOnce(admin ? loadAdminShell : loadClientShell),
        loadOnce(pages[page]!),
      ]).then(([area]) => area),
    `${admin ? 'admin' : 'client'} ${page}`,
  );
}
