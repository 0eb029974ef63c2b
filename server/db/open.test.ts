// Two server processes started together on a new SQLite file (a deploy, a test run) both switch
// it to WAL; SQLite refuses one of them at once, and it must try again rather than fail to start.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSqlite } from './sqlite-driver.ts';
import { describe, expect, it } from 'vitest';
import { engine } from '#server/test/helpers.ts';

const ROUNDS = 15;

describe.runIf(engine === 'sqlite')('opening a new SQLite file', () => {
  it('succeeds in two processes opening it at the same moment, round after round', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sebar-open-'));
    try {
      // Both start in time to load their code; then every round opens a file of its own.
      const first = Date.now() + 4_000;
      const children = [0, 1].map(() =>
        spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(import.meta.dirname, '..', 'test', 'open-child.ts'),
            dir,
            String(ROUNDS),
            String(first),
            '150',
          ],
          { stdio: ['ignore', 'inherit', 'pipe'] },
        ),
      );
      const results = await Promise.all(
        children.map(
          (child) =>
            new Promise<{ code: number | null; stderr: string }>((resolve) => {
              let stderr = '';
              child.stderr!.on('data', (chunk) => (stderr += chunk));
              child.on('exit', (code) => resolve({ code, stderr }));
            }),
        ),
      );
      expect(results).toEqual([
        { code: 0, stderr: '' },
        { code: 0, stderr: '' },
      ]);
      for (let round = 0; round < ROUNDS; round += 1) {
        const db = new (loadSqlite())(path.join(dir, `${round}.sqlite`), { readonly: true });
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.prepare('select count(*) from opened').pluck().get()).toBe(2);
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
