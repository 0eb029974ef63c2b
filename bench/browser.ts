// The browser app's figures: gzip size of the JavaScript each page downloads (from the Vite
// manifest and from a real page load in Chromium), and Lighthouse performance (mobile preset,
// median of 3 runs). A browser that cannot start or a Lighthouse that fails is a figure not met,
// with the error in its note, never an exception that ends the bench.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort } from '#server/test/processes.ts';
import type { Figure } from './stats.ts';

const CHROMIUM = '/usr/bin/chromium';
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
/** Lighthouse runs per page: one run on this shared machine moves by several points. */
export const LIGHTHOUSE_RUNS = 3;

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
  /** The browser to start (tests point it at a missing file). */
  executablePath?: string;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipSize = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const message = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** Files a chunk loads before it runs: itself and its static imports, transitively. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()) {
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
type PageName = (typeof PAGES)[number]['name'];

const SHELLS = [
  ['admin shell', 'app/admin/admin-shell.tsx', 'admin dashboard'],
  ['client shell', 'app/client-area/client-shell.tsx', 'client blast form'],
] as const;

async function signIn(context: BrowserContext, base: string, session: Session | null) {
  const page = await context.newPage();
  try {
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
  } finally {
    await page.close();
  }
}

/** What each page really downloads: the gzip size of every script response of a fresh load. */
async function measureDownloads(context: BrowserContext, input: BrowserInput) {
  const downloaded: Partial<Record<PageName, number>> = {};
  for (const target of PAGES) {
    await signIn(context, input.base, target.session ? input[target.session] : null);
    const page = await context.newPage();
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') {
        scripts.push(response.body().then(gzipSize, () => 0));
      }
    });
    try {
      await page.goto(`${input.base}${target.path}`, { waitUntil: 'networkidle' });
      // A busy machine can keep the network quiet for half a second before the app asks for
      // the screen's chunks: the page counts once its heading shows and the network is quiet.
      await page.locator('main h1').waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      downloaded[target.name] = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
    } finally {
      await page.close();
    }
  }
  return downloaded;
}

interface LighthouseRun {
  score: number;
  metrics: string;
  finalUrl: string;
  /** The error of a first try whose trace Lighthouse failed to record (see RECORDING_FAILED). */
  retriedAfter?: string;
}

/**
 * Lighthouse's own trace recording failed, and its message asks to run it again: a fault of the
 * measurement, not of the page. Such a run is measured once more; any other error stands.
 */
const RECORDING_FAILED = /^(NO_NAVSTART|NO_TRACING_STARTED):/;

/** A Lighthouse run, taken again once when its trace was not recorded. */
async function measurePage(
  ...args: Parameters<typeof runLighthouse>
): Promise<LighthouseRun | { error: string }> {
  const first = await runLighthouse(...args);
  if (!('error' in first) || !RECORDING_FAILED.test(first.error)) return first;
  const code = first.error.split(':')[0];
  args[2].log(`${args[3].name}: ${code}, measured again`);
  const again = await runLighthouse(...args);
  return 'error' in again ? again : { ...again, retriedAfter: code };
}

/** One Lighthouse run of a page: its score and metrics, or the reason it gave none. */
async function runLighthouse(
  context: BrowserContext,
  port: number,
  input: BrowserInput,
  target: (typeof PAGES)[number],
): Promise<LighthouseRun | { error: string }> {
  const session = target.session ? input[target.session] : null;
  try {
    await signIn(context, input.base, session);
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
    if (!lhr) return { error: 'Lighthouse gave no report' };
    if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const score = lhr.categories.performance?.score;
    if (typeof score !== 'number') return { error: 'Lighthouse gave no performance score' };
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '?';
    return {
      score: Math.round(score * 100),
      metrics: `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
      finalUrl: lhr.finalDisplayedUrl,
    };
  } catch (error) {
    return { error: `Lighthouse failed: ${message(error)}` };
  }
}

/**
 * The Lighthouse figure of a page from its runs: the median score, with the metrics of the run
 * that scored it. A run that failed makes the figure not met, whatever the others scored.
 */
export function lighthouseFigure(
  name: string,
  runs: (LighthouseRun | { error: string })[],
): Figure {
  const scored = runs
    .filter((run): run is LighthouseRun => 'score' in run)
    .sort((a, b) => a.score - b.score);
  const errors = runs.flatMap((run) => ('error' in run ? [run.error] : []));
  // The middle run; of an even number, the lower of the two middle ones.
  const median = scored[Math.floor((scored.length - 1) / 2)];
  const failed = errors.length
    ? `${errors.length} of ${runs.length} run(s) failed: ${[...new Set(errors)].join('; ')}`
    : '';
  const retried = scored.flatMap((run) => (run.retriedAfter ? [run.retriedAfter] : []));
  const again = retried.length
    ? `; ${retried.length} run(s) measured again after Lighthouse failed to record the trace (${[...new Set(retried)].join(', ')})`
    : '';
  const note = median
    ? `${median.metrics} (the median run); scores ${scored.map((run) => run.score).join(', ')}; final URL ${median.finalUrl}${again}${failed ? `; ${failed}` : ''}`
    : failed;
  return {
    figure: `Lighthouse performance (mobile): ${name}`,
    engine: 'any',
    value: median?.score ?? null,
    unit: `/100, median of ${scored.length} run(s) (${note})`,
    baseline: null,
    ratio: null,
    target: `>= 95 (median of ${LIGHTHOUSE_RUNS} runs)`,
    met: median !== undefined && errors.length === 0 && median.score >= 95,
    note,
  };
}

export async function measureBrowser(input: BrowserInput): Promise<Figure[]> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(
      fs.readFileSync(path.join(input.clientDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
  } catch (error) {
    return failedFigures(`the Vite manifest could not be read: ${message(error)}`);
  }
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const entry = entryKey ? closure(manifest, entryKey) : new Set<string>();
  const jsGzip = (keys: Iterable<string>) =>
    [...keys].reduce(
      (n, k) => n + gzipSize(fs.readFileSync(path.join(input.clientDir, manifest[k]!.file))),
      0,
    );
  const entryBytes = jsGzip(entry);

  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-bench-chromium-'));
  const port = await freePort();
  let context: BrowserContext | undefined;
  let browserError: string | undefined;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: input.executablePath ?? CHROMIUM,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    });
  } catch (error) {
    browserError = `Chromium could not be started: ${message(error)}`;
    input.log(browserError);
  }

  const figures: Figure[] = [];
  try {
    let downloaded: Partial<Record<PageName, number>> = {};
    let downloadError = browserError;
    if (context) {
      try {
        downloaded = await measureDownloads(context, input);
      } catch (error) {
        downloadError = `loading the pages failed: ${message(error)}`;
      }
    }
    const signInBytes = downloaded['sign-in page'];
    figures.push({
      figure: 'sign-in page: gzip JavaScript downloaded',
      engine: 'any',
      value: signInBytes === undefined ? null : kb(signInBytes),
      unit: `KB (entry chunk and its imports per the Vite manifest: ${kb(entryBytes)} KB)`,
      baseline: null,
      ratio: null,
      target: '< 100 KB',
      met: signInBytes !== undefined && signInBytes < 100 * 1024,
      note: signInBytes === undefined ? downloadError : undefined,
    });
    for (const [name, key, pageName] of SHELLS) {
      const chunk = manifest[key];
      const own = chunk ? [...closure(manifest, key)].filter((k) => !entry.has(k)) : [];
      const separate = Boolean(chunk?.isDynamicEntry) && !entry.has(key);
      const pageBytes = downloaded[pageName];
      figures.push({
        figure: `${name}: gzip JavaScript of its own chunk(s)`,
        engine: 'any',
        value: chunk ? kb(jsGzip(own)) : null,
        unit: `KB in ${own.length} chunk(s) beyond the entry; the ${pageName} downloads ${pageBytes === undefined ? 'n/a' : `${kb(pageBytes)} KB`} of gzip JavaScript in all`,
        baseline: null,
        ratio: null,
        target: 'its own chunk',
        met: separate,
        note: chunk ? undefined : `${key} is not in the Vite manifest`,
      });
    }

    // Rounds over the three pages, so a burst of other work on the machine weighs on all alike.
    const runs = new Map<PageName, (LighthouseRun | { error: string })[]>(
      PAGES.map((target) => [target.name, context ? [] : [{ error: browserError! }]]),
    );
    for (let round = 1; context && round <= LIGHTHOUSE_RUNS; round++) {
      for (const target of PAGES) {
        input.log(`Lighthouse ${round}/${LIGHTHOUSE_RUNS}: ${target.name}`);
        runs.get(target.name)!.push(await measurePage(context, port, input, target));
      }
    }
    for (const target of PAGES) figures.push(lighthouseFigure(target.name, runs.get(target.name)!));
  } finally {
    await context?.close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  return figures;
}

/** Every browser figure as not met, for a reason that stopped them all. */
function failedFigures(reason: string): Figure[] {
  const failed = (figure: string, target: string): Figure => ({
    figure,
    engine: 'any',
    value: null,
    unit: '',
    baseline: null,
    ratio: null,
    target,
    met: false,
    note: reason,
  });
  return [
    failed('sign-in page: gzip JavaScript downloaded', '< 100 KB'),
    ...SHELLS.map(([name]) =>
      failed(`${name}: gzip JavaScript of its own chunk(s)`, 'its own chunk'),
    ),
    ...PAGES.map((target) => lighthouseFigure(target.name, [{ error: reason }])),
  ];
}
