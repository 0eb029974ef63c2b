// The browser figures' failure paths and their median, without a browser or a server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lighthouseFigure, measureBrowser } from './browser.ts';

const run = (score: number) => ({
  score,
  metrics: `FCP ${score} s, LCP ${score} s, TBT ${score} ms, CLS 0`,
  finalUrl: 'http://127.0.0.1/blast-form',
});

describe('lighthouseFigure', () => {
  it('is the median score, with the metrics of the run that scored it', () => {
    const figure = lighthouseFigure('client blast form', [run(97), run(90), run(99)]);
    expect(figure.value).toBe(97);
    expect(figure.met).toBe(true);
    expect(figure.unit).toMatch(/^\/100, median of 3 run\(s\) \(FCP 97 s, LCP 97 s, TBT 97 ms/);
    expect(figure.note).toContain('scores 90, 97, 99');
  });

  it('is not met when the median is under 95, however good the best run', () => {
    const figure = lighthouseFigure('admin dashboard', [run(99), run(94), run(93)]);
    expect(figure.value).toBe(94);
    expect(figure.met).toBe(false);
  });

  it('is not met when a run failed, and names the failure', () => {
    const figure = lighthouseFigure('sign-in page', [
      run(99),
      { error: 'NO_FCP: no paint' },
      run(98),
    ]);
    expect(figure.value).toBe(98);
    expect(figure.met).toBe(false);
    expect(figure.note).toContain('1 of 3 run(s) failed: NO_FCP: no paint');
  });

  it('says which runs were measured again after Lighthouse failed to record the trace', () => {
    const figure = lighthouseFigure('admin dashboard', [
      run(97),
      { ...run(96), retriedAfter: 'NO_NAVSTART' },
      run(98),
    ]);
    expect(figure).toMatchObject({ value: 97, met: true });
    expect(figure.note).toContain(
      '1 run(s) measured again after Lighthouse failed to record the trace (NO_NAVSTART)',
    );
  });

  it('has no value when every run failed', () => {
    const figure = lighthouseFigure('sign-in page', [{ error: 'Lighthouse failed: gone' }]);
    expect(figure).toMatchObject({ value: null, met: false });
    expect(figure.note).toContain('Lighthouse failed: gone');
  });
});

describe('measureBrowser', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A built app's folder: a manifest with an entry and the two shells, and their files. */
  function clientDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-bench-test-'));
    dirs.push(dir);
    const manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true },
      'app/admin/admin-shell.tsx': { file: 'assets/admin-shell.js', isDynamicEntry: true },
      'app/client-area/client-shell.tsx': { file: 'assets/client-shell.js', isDynamicEntry: true },
    };
    fs.mkdirSync(path.join(dir, '.vite'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    for (const { file } of Object.values(manifest)) {
      fs.writeFileSync(
        path.join(dir, file),
        `export const x = '${crypto.randomBytes(3000).toString('hex')}';`,
      );
    }
    return dir;
  }

  const input = (dir: string, executablePath: string) => ({
    base: 'http://127.0.0.1:9',
    clientDir: dir,
    admin: { access_token: 'a', user: {} },
    client: { access_token: 'c', user: {} },
    log: () => {},
    executablePath,
  });

  it('records every figure as not met, with the reason, when Chromium cannot start', async () => {
    const figures = await measureBrowser(input(clientDir(), '/nonexistent/chromium'));
    expect(figures.map((f) => f.figure)).toEqual([
      'sign-in page: gzip JavaScript downloaded',
      'admin shell: gzip JavaScript of its own chunk(s)',
      'client shell: gzip JavaScript of its own chunk(s)',
      'Lighthouse performance (mobile): sign-in page',
      'Lighthouse performance (mobile): admin dashboard',
      'Lighthouse performance (mobile): client blast form',
    ]);
    const [signIn, adminShell, , ...lighthouse] = figures;
    expect(signIn).toMatchObject({ value: null, met: false });
    expect(signIn!.note).toMatch(/^Chromium could not be started: .*\/nonexistent\/chromium/);
    // The shells' chunks come from the manifest alone.
    expect(adminShell).toMatchObject({ met: true });
    expect(adminShell!.value).toBeGreaterThan(0);
    for (const figure of lighthouse) {
      expect(figure).toMatchObject({ value: null, met: false });
      expect(figure.note).toContain('Chromium could not be started');
    }
  });

  it('records every figure as not met when the build has no manifest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-bench-test-'));
    dirs.push(dir);
    const figures = await measureBrowser(input(dir, '/nonexistent/chromium'));
    expect(figures).toHaveLength(6);
    for (const figure of figures) {
      expect(figure).toMatchObject({ value: null, met: false });
      expect(figure.note).toContain('the Vite manifest could not be read');
    }
  });
});
