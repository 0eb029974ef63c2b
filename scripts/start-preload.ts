// A Vite plugin that writes a small inline script into index.html: with a saved session it asks
// for the signed-in screen's chunks (the area, the role's shell, the screen at the address and
// what they import) and the data it first shows, as the page starts, alongside the entry chunk,
// instead of once the entry has downloaded and run (client/main.tsx asks for the same files then
// and gets these downloads; client/lib/api-client.ts takes the answers). Without a session it
// asks for nothing, so the sign-in page downloads only its own code.
// The server allows the script by its hash (server/plugins/security-headers.ts).
import type { Plugin, Rolldown } from 'vite';
import { SCREEN_DATA } from '../client/app/screen-data.ts';

/** A screen's module (client/app/pages.ts) and its route: dashboard.tsx is "/", x.tsx is "/x". */
const SCREEN = /[\\/]client[\\/]app[\\/](admin|client-area)[\\/]pages[\\/]([\w-]+)\.tsx$/;
const AREA = /[\\/]client[\\/]app[\\/]signed-in\.tsx$/;
const SHELLS = {
  admin: /[\\/]client[\\/]app[\\/]admin[\\/]admin-shell\.tsx$/,
  client: /[\\/]client[\\/]app[\\/]client-area[\\/]client-shell\.tsx$/,
};

/**
 * Runs in the page. `files` are the chunks' addresses; `screens` maps "admin /blast-results" (the
 * role's area and a route) to indexes into `files`; `data` maps it to the GET paths under /api the
 * screen shows first (client/app/screen-data.ts), with the signed-in user for every screen. The
 * session's keys and the rules match client/lib/session.ts's readStoredSession and
 * client/app/pages.ts's loadSignedInArea (an unknown route: the dashboard; a trailing slash
 * ignored); e2e/code-loading.test.ts checks that each screen loads exactly these files and asks
 * for this data once.
 */
const RUNTIME = `(function (files, screens, data) {
  try {
    var token = localStorage.getItem('token');
    var user = JSON.parse(localStorage.getItem('user'));
    if (!token || !user || typeof user.username !== 'string' || typeof user.role !== 'string') return;
    var area = user.role === 'super_admin' ? 'admin ' : 'client ';
    var path = location.pathname.length > 1 ? location.pathname.replace(/\\/+$/, '') : location.pathname;
    var screen = screens[area + path] ? area + path : area + '/';
    var chunks = screens[screen];
    for (var i = 0; i < chunks.length; i++) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = files[chunks[i]];
      document.head.appendChild(link);
    }
    var early = (window.sebarEarly = { token: token, at: performance.now(), answers: {} });
    var paths = ['/auth/me'].concat(data[screen] || []);
    for (var j = 0; j < paths.length; j++) {
      var headers = { accept: 'application/json', authorization: 'Bearer ' + token };
      early.answers[paths[j]] = fetch('/api' + paths[j], { headers: headers });
      // The screen may not take it: a failure must not be an unhandled rejection.
      early.answers[paths[j]].catch(function () {});
    }
  } catch (error) {}
})`;

type Bundle = Rolldown.OutputBundle;

/** A chunk's file and those it imports statically, transitively. */
function closure(bundle: Bundle, fileName: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (seen.has(fileName) || chunk?.type !== 'chunk') return seen;
  seen.add(fileName);
  for (const next of chunk.imports) closure(bundle, next, seen);
  return seen;
}

/** The files each signed-in screen needs beyond the entry's, as the inline script's arguments. */
function screenChunks(bundle: Bundle, base: string) {
  const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry);
  const find = (pattern: RegExp) =>
    chunks.find((chunk) => pattern.test(chunk.facadeModuleId ?? ''));
  const area = find(AREA);
  if (!entry || !area) throw new Error('start-preload: no entry or signed-in area chunk');
  const loaded = closure(bundle, entry.fileName);
  const files: string[] = [];
  const screens: Record<string, number[]> = {};
  for (const chunk of chunks) {
    const match = SCREEN.exec(chunk.facadeModuleId ?? '');
    if (!match) continue;
    const role = match[1] === 'admin' ? 'admin' : 'client';
    const shell = find(SHELLS[role]);
    if (!shell) throw new Error(`start-preload: no ${role} shell chunk`);
    const needed = new Set<string>();
    for (const root of [area, shell, chunk]) closure(bundle, root.fileName, needed);
    screens[`${role} ${match[2] === 'dashboard' ? '/' : `/${match[2]}`}`] = [...needed]
      .filter((file) => !loaded.has(file))
      .map((file) => {
        const at = files.indexOf(base + file);
        return at >= 0 ? at : files.push(base + file) - 1;
      });
  }
  return { files, screens };
}

export function startPreload(): Plugin {
  let base = '/';
  return {
    name: 'sebar:start-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.bundle) return html;
        const { files, screens } = screenChunks(context.bundle, base);
        const args = [files, screens, SCREEN_DATA].map((value) => JSON.stringify(value));
        const script = `<script>${RUNTIME}(${args.join(', ')});</script>`;
        // Before the entry's tag, so the downloads start as early as the entry's. A function, so
        // that no "$" in the script is read as a replacement pattern.
        return html.replace(
          /(\s*)<script type="module"/,
          (tag, space: string) => space + script + tag,
        );
      },
    },
  };
}
