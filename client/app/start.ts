// How the signed-in area starts: its code (the router, the data layer and the routes of both
// roles) is a chunk of its own, downloaded together with the role's shell and the first screen.
import type { Role } from '#common/auth.ts';
import { loadAdminShell, loadClientShell, pageAt } from './pages.ts';

/** The signed-in area: the router, the data layer and the routes of both roles. */
export const loadSignedInArea = () => import('./signed-in.tsx');

/**
 * Downloads the signed-in area, the role's shell and the screen at `pathname` (an unknown one:
 * the dashboard) together, in one wave; the area's router starts (and its loaders ask for the
 * screen's data) as soon as the area's own code is there.
 */
export function loadSignedIn(role: Role, pathname: string): Promise<unknown> {
  return Promise.all([
    loadSignedInArea().then((area) => area.routerFor(role)),
    (role === 'super_admin' ? loadAdminShell : loadClientShell)(),
    (pageAt(role, pathname) ?? pageAt(role, '/')!)(),
  ]);
}
