// How the app's code arrives: a signed-in screen's chunks are asked for together (none waits for
// another to run), screens without a form get neither zod nor the form library, and a screen's
// chunk downloads as soon as a link to it is pointed at; the first screen's data is asked for
// alongside its code (the route's loader), once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '#common/auth.ts';
import { ADMIN_ROUTES, CLIENT_ROUTES, type RouteEntry } from '#client/app/routes.ts';
import { LOAD_ERROR_TEXT, LOAD_ERROR_TITLE } from '#client/components/ui/load-error.tsx';
import { ADMIN, screenshot, shellTitle, signIn, startE2E, type E2E, type Page } from './helpers.ts';

let e2e: E2E;

/** What a screen asks the server for as it first shows, besides the signed-in user. */
const SCREEN_DATA: Record<string, readonly string[]> = {
  'admin /': ['/api/admin/dashboard'],
  'client /': ['/api/client/dashboard'],
  'client /blast-form': ['/api/public/settings'],
  'client /topup': ['/api/pricing', '/api/public/settings'],
};

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** A page signed in through the form, then left on /login's context for a fresh load. */
async function signedIn(email: string, password: string): Promise<Page> {
  const page = await e2e.open('/login', 'desktop');
  await signIn(page, email, password);
  return page;
}

/** The script files a fresh load of `path` asks for (file names without their hash). */
async function scriptsOf(page: Page, path: string): Promise<string[]> {
  const scripts: string[] = [];
  const onRequest = (request: { resourceType(): string; url(): string }) => {
    if (request.resourceType() === 'script') {
      scripts.push(new URL(request.url()).pathname.replace(/^\/assets\/|-[\w-]{8}\.js$/g, ''));
    }
  };
  page.on('request', onRequest);
  await page.goto(`${e2e.url}${path}`, { waitUntil: 'networkidle' });
  page.off('request', onRequest);
  return scripts;
}

describe('a signed-in screen', () => {
  it("asks for the area, its shell and itself at once: the screen's chunk comes while the others are held back", async () => {
    const client = await e2e.server.createClient({ username: 'muat-sekaligus' });
    const page = await signedIn(client.user.email, client.password);
    const held: (() => Promise<void>)[] = [];
    await page.route(/\/assets\/(signed-in|client-shell)-[\w-]+\.js$/, (route) => {
      held.push(() => route.continue());
    });
    const screenChunk = page.waitForRequest(/\/assets\/blast-form-[\w-]+\.js$/, {
      timeout: 10_000,
    });
    await page.goto(`${e2e.url}/blast-form`, { waitUntil: 'commit' });
    // Were the chunks asked for one after another, this would wait for the held ones forever.
    await screenChunk;
    await expect.poll(() => held.length).toBe(2);
    for (const release of held) await release();
    await page.getByRole('heading', { name: 'Form Blast WhatsApp' }).waitFor();
    await page.context().close();
  });

  it('downloads zod and the form library only with a screen that needs them', async () => {
    const client = await e2e.server.createClient({ username: 'tanpa-zod' });
    const clientPage = await signedIn(client.user.email, client.password);
    const blastForm = await scriptsOf(clientPage, '/blast-form');
    expect(blastForm).toContain('blast-form');
    // Form Blast checks with its own rules (blastResolver): the form library, without zod.
    expect(blastForm).toContain('forms');
    expect(blastForm).not.toContain('zod');
    // The same names do appear where a form needs them.
    expect(await scriptsOf(clientPage, '/topup')).toContain('zod');
    await clientPage.context().close();

    const adminPage = await signedIn(ADMIN.email, ADMIN.password);
    const dashboard = await scriptsOf(adminPage, '/');
    expect(dashboard).toContain('dashboard');
    expect(dashboard.filter((name) => /^(zod|forms)$/.test(name))).toEqual([]);
    expect(await scriptsOf(adminPage, '/pricing')).toEqual(
      expect.arrayContaining(['zod', 'forms']),
    );
    await adminPage.context().close();
  });

  it.each([
    [
      'admin',
      '/',
      /\/assets\/dashboard-[\w-]+\.js$/,
      ['/api/admin/dashboard', '/api/admin/delivery/queue'],
      /Selamat datang/,
    ],
    [
      'client',
      '/blast-form',
      /\/assets\/blast-form-[\w-]+\.js$/,
      ['/api/public/settings'],
      'Form Blast WhatsApp',
    ],
    [
      'client',
      '/topup',
      /\/assets\/topup-[\w-]+\.js$/,
      ['/api/pricing', '/api/public/settings'],
      'Top Up Poin',
    ],
  ] as const)(
    "as %s on %s, asks for the screen's data and the user while its code downloads, once each",
    async (role, path, chunk, data, heading) => {
      const account =
        role === 'admin'
          ? ADMIN
          : await e2e.server
              .createClient({ username: `awal-${path.slice(1)}` })
              .then((client) => ({ email: client.user.email, password: client.password }));
      const page = await signedIn(account.email, account.password);
      const asked: string[] = [];
      page.on('request', (request) => {
        const pathname = new URL(request.url()).pathname;
        if (pathname.startsWith('/api/')) asked.push(pathname);
      });
      const held: (() => Promise<void>)[] = [];
      await page.route(chunk, (route) => {
        held.push(() => route.continue());
      });
      const expected = ['/api/auth/me', ...data].toSorted();
      await page.goto(`${e2e.url}${path}`, { waitUntil: 'commit' });
      // The screen cannot have asked: its code is held back.
      await expect.poll(() => asked.toSorted(), { timeout: 10_000 }).toEqual(expected);
      await expect.poll(() => held.length).toBe(1);
      await held[0]!();
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(asked.toSorted()).toEqual(expected);
      await page.context().close();
    },
  );

  it('downloads the screen a link leads to when the pointer rests on the link', async () => {
    const client = await e2e.server.createClient({ username: 'tunjuk-tautan' });
    const page = await signedIn(client.user.email, client.password);
    await page.goto(`${e2e.url}/blast-form`, { waitUntil: 'networkidle' });
    const link = page
      .getByRole('navigation', { name: 'Menu klien' })
      .getByRole('link', { name: 'Top Up Poin' });
    const topupChunk = page.waitForRequest(/\/assets\/topup-[\w-]+\.js$/, { timeout: 10_000 });
    await link.hover();
    await topupChunk;
    expect(new URL(page.url()).pathname).toBe('/blast-form');
    await link.click();
    await expect.poll(() => shellTitle(page)).toBe('Top Up Poin');
    await page.getByRole('heading', { name: 'Top Up Poin' }).waitFor();
    await page.context().close();
  });

  it("sending a blast downloads Hasil Blast's code while the blast is being created", async () => {
    const client = await e2e.server.createClient({ username: 'kirim-lalu-hasil' });
    await e2e.server.api('PUT', `/api/admin/users/${client.user.id}`, {
      token: e2e.server.adminToken,
      body: {
        username: client.user.username,
        email: client.user.email,
        points: 5,
        is_active: true,
      },
    });
    const page = await signedIn(client.user.email, client.password);
    await page.goto(`${e2e.url}/blast-form`, { waitUntil: 'networkidle' });
    const held: (() => Promise<void>)[] = [];
    await page.route('**/api/client/blast-requests', (route) => {
      held.push(() => route.continue());
    });
    await page.getByLabel('Nomor WhatsApp Tujuan').fill('081234567890');
    await page.getByLabel('Pesan').fill('Halo');
    const resultsChunk = page.waitForRequest(/\/assets\/blast-results-[\w-]+\.js$/, {
      timeout: 10_000,
    });
    await page.getByRole('button', { name: 'KIRIM BLAST REQUEST' }).click();
    await resultsChunk;
    await expect.poll(() => held.length).toBe(1);
    await held[0]!();
    await page.waitForURL('**/blast-results');
    await expect.poll(() => shellTitle(page)).toBe('Hasil Blast');
    await page.context().close();
  });
});

describe('a fresh load', () => {
  /**
   * Loads `path` in a fresh context with `session` saved (or none) and waits for `title` in the
   * shell's header (or the sign-in button): the scripts and API paths asked for, with how often.
   */
  async function load(path: string, session: { token: string; user: User } | null, title: string) {
    const page = await e2e.open('/login');
    await page.evaluate((saved) => {
      localStorage.clear();
      if (saved) {
        localStorage.setItem('token', saved.token);
        localStorage.setItem('user', JSON.stringify(saved.user));
      }
    }, session);
    const scripts = new Map<string, number>();
    const api = new Map<string, number>();
    page.on('request', (request) => {
      const file = new URL(request.url()).pathname;
      const counts =
        request.resourceType() === 'script' ? scripts : file.startsWith('/api/') ? api : null;
      counts?.set(file, (counts.get(file) ?? 0) + 1);
    });
    await page.goto(`${e2e.url}${path}`, { waitUntil: 'commit' });
    if (session) await expect.poll(() => shellTitle(page)).toBe(title);
    else await page.getByRole('button', { name: title }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.context().close();
    return { scripts: [...scripts], api: Object.fromEntries(api) };
  }

  const signedInAs = async (role: 'admin' | 'client') => {
    const account =
      role === 'admin'
        ? ADMIN
        : await e2e.server
            .createClient({ username: 'awal-muat' })
            .then((client) => ({ email: client.user.email, password: client.password }));
    const { body } = await e2e.server.api('POST', '/api/auth/login', { body: account });
    return { token: body.access_token as string, user: body.user as User };
  };

  it.each([
    ['admin', ADMIN_ROUTES],
    ['client', CLIENT_ROUTES],
  ] as const)(
    "as %s, asks for each chunk once and for the user and each screen's data once",
    async (role, routes: readonly RouteEntry[]) => {
      const session = await signedInAs(role);
      for (const route of [...routes, { path: '/tidak-ada/', label: 'Dashboard' }]) {
        const { scripts, api } = await load(route.path, session, route.label);
        expect(scripts.length, route.path).toBeGreaterThan(3);
        expect(
          scripts.filter(([, count]) => count !== 1),
          route.path,
        ).toEqual([]);
        expect(api['/api/auth/me'], route.path).toBe(1);
        const screen = `${role} ${route.label === 'Dashboard' ? '/' : route.path}`;
        for (const path of SCREEN_DATA[screen] ?? []) {
          expect(api[path], `${route.path} ${path}`).toBe(1);
        }
      }
    },
    // Ten fresh page loads.
    180_000,
  );

  it('without a saved session, the sign-in page downloads only its own code and asks for no data', async () => {
    const { scripts, api } = await load('/blast-form', null, 'Sign In');
    expect(scripts.map(([file]) => file)).toEqual([expect.stringMatching(/^\/assets\/index-/)]);
    expect(api).toEqual({});
  });
});

describe("a chunk that does not download (the network dropped, or an update replaced the page's files)", () => {
  it('shows the load error in place of the screen; the sidebar still works and Muat Ulang brings the screen', async () => {
    const client = await e2e.server.createClient({ username: 'gagal-muat' });
    const page = await signedIn(client.user.email, client.password);
    const topup = /\/assets\/topup-[\w-]{8}\.js$/;
    await page.route(topup, (route) => route.abort('internetdisconnected'));
    const nav = page.getByRole('navigation', { name: 'Menu klien' });
    await nav.getByRole('link', { name: 'Top Up Poin' }).click();
    const failed = page.getByRole('alert').filter({ hasText: LOAD_ERROR_TITLE });
    await failed.getByText(LOAD_ERROR_TEXT).waitFor();
    expect(await shellTitle(page)).toBe('Top Up Poin');
    await screenshot(page, 'load-error-screen-desktop');

    // Another screen's code is another file: it comes.
    await nav.getByRole('link', { name: 'Riwayat Top Up' }).click();
    await page.getByRole('heading', { name: 'Riwayat Top Up' }).waitFor();
    expect(await failed.count()).toBe(0);

    // Back on the failed screen, the network back: a reload fetches it anew.
    await nav.getByRole('link', { name: 'Top Up Poin' }).click();
    await failed.waitFor();
    await page.unroute(topup);
    await failed.getByRole('button', { name: 'Muat Ulang' }).click();
    await page.getByRole('heading', { name: 'Top Up Poin' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/topup');
    await page.context().close();
  });

  it("shows the load error on the whole page when the shell's code fails at start, not a blank page", async () => {
    const client = await e2e.server.createClient({ username: 'gagal-awal' });
    const page = await signedIn(client.user.email, client.password);
    const shell = /\/assets\/client-shell-[\w-]+\.js$/;
    await page.route(shell, (route) => route.abort('internetdisconnected'));
    await page.goto(`${e2e.url}/blast-form`);
    const failed = page.getByRole('alert').filter({ hasText: LOAD_ERROR_TITLE });
    await failed.getByText(LOAD_ERROR_TEXT).waitFor();
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'load-error-page-phone');
    await page.unroute(shell);
    await failed.getByRole('button', { name: 'Muat Ulang' }).click();
    await page.getByRole('heading', { name: 'Form Blast WhatsApp' }).waitFor();
    await page.context().close();
  });
});
