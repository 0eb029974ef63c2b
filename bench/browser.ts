// The browser app's figures: gzip size of the JavaScript each page downloads (from the Vite
// manifest and from a real page load in Chromium), and Lighthouse performance (mobile preset).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort } from './ports.ts';
import type { Figure } from './run.ts';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

interface Session {
  access_token: string;
  user: object;
}

export interface BrowserInput {
  base: string;
  clientDir: string;
  admin: Session;
  client: Session;
  log: (message: string) => void;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const gzipSize = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Files a chunk loads before it runs: itself and its static imports, transitively. */
function closure(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key]?.imports ?? []) closure(manifest, next, seen);
  return seen;
}

const PAGES = [
  { name: 'sign-in page', path: '/login', session: null },
  { name: 'admin dashboard', path: '/', session: 'admin' },
  { name: 'client blast form', path: '/blast-form', session: 'client' },
] as const;

async function signIn(context: BrowserContext, base: string, session: Session | null) {
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.evaluate(
    (s) => {
      localStorage.clear();
      if (s) {
        localStorage.setItem('token', s.access_token);
        localStorage.setItem('user', JSON.stringify(s.user));
      }
    },
    session ? { access_token: session.access_token, user: session.user } : null,
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await page.close();
}

export async function measureBrowser(input: BrowserInput): Promise<Figure[]> {
  const figures: Figure[] = [];
  const manifest = JSON.parse(
    fs.readFileSync(path.join(input.clientDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const entry = closure(manifest, entryKey);
  const jsGzip = (keys: Iterable<string>) =>
    [...keys].reduce(
      (n, k) => n + gzipSize(fs.readFileSync(path.join(input.clientDir, manifest[k]!.file))),
      0,
    );
  const entryBytes = jsGzip(entry);

  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-bench-chromium-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    // What each page really downloads: every script response of a fresh load.
    const downloaded: Record<string, number> = {};
    for (const target of PAGES) {
      const session = target.session ? input[target.session] : null;
      await signIn(context, input.base, session);
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') {
          scripts.push(response.body().then(gzipSize, () => 0));
        }
      });
      await page.goto(`${input.base}${target.path}`, { waitUntil: 'networkidle' });
      downloaded[target.name] = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
      await page.close();
    }
    figures.push({
      figure: 'sign-in page: gzip JavaScript downloaded',
      engine: 'any',
      value: kb(downloaded['sign-in page']!),
      unit: `KB (entry chunk and its imports per the Vite manifest: ${kb(entryBytes)} KB)`,
      baseline: null,
      ratio: null,
      target: '< 100 KB',
      met: downloaded['sign-in page']! < 100 * 1024,
    });
    for (const [name, key, pageName] of [
      ['admin shell', 'app/admin/admin-shell.tsx', 'admin dashboard'],
      ['client shell', 'app/client-area/client-shell.tsx', 'client blast form'],
    ] as const) {
      const chunk = manifest[key];
      const own = chunk ? [...closure(manifest, key)].filter((k) => !entry.has(k)) : [];
      const separate = Boolean(chunk?.isDynamicEntry) && !entry.has(key);
      figures.push({
        figure: `${name}: gzip JavaScript of its own chunk(s)`,
        engine: 'any',
        value: chunk ? kb(jsGzip(own)) : null,
        unit: `KB in ${own.length} chunk(s) beyond the entry; the ${pageName} downloads ${kb(downloaded[pageName]!)} KB of gzip JavaScript in all`,
        baseline: null,
        ratio: null,
        target: 'its own chunk',
        met: separate,
        note: chunk ? undefined : `${key} is not in the Vite manifest`,
      });
    }

    for (const target of PAGES) {
      input.log(`Lighthouse: ${target.name}`);
      const session = target.session ? input[target.session] : null;
      await signIn(context, input.base, session);
      let score: number | null = null;
      let note: string | undefined;
      try {
        const result = await lighthouse(
          `${input.base}${target.path}`,
          {
            port,
            logLevel: 'error',
            output: 'json',
            onlyCategories: ['performance'],
            // Keeps the session set above; the HTTP cache was cleared by signIn.
            disableStorageReset: session !== null,
          },
          undefined,
        );
        const lhr = result?.lhr;
        score = lhr?.categories.performance?.score ?? null;
        if (score !== null) score = Math.round(score * 100);
        const audits = lhr?.audits ?? {};
        const metric = (id: string) => audits[id]?.displayValue ?? '?';
        note = `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}; final URL ${lhr?.finalDisplayedUrl ?? '?'}`;
        if (lhr?.runtimeError) note = `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`;
      } catch (error) {
        note = `Lighthouse failed: ${(error as Error).message}`;
      }
      figures.push({
        figure: `Lighthouse performance (mobile): ${target.name}`,
        engine: 'any',
        value: score,
        unit: `/100 (${note})`,
        baseline: null,
        ratio: null,
        target: '>= 95',
        met: score === null ? false : score >= 95,
        note,
      });
    }
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  return figures;
}
