// Turns between keys: one key's queue never runs ahead of another key's waiting task.
import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.ts';

/** A task that records its start and ends when `release` is called. */
function gate(log: string[], label: string) {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    work: async () => {
      log.push(label);
      await done;
      return label;
    },
    release: () => release(),
  };
}

describe('FairQueue', () => {
  it('serves waiting keys in turn, one task of a key at a time, within its slots', async () => {
    const queue = new FairQueue(2);
    const log: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'b1', 'c1'].map((label) => ({ label, ...gate(log, label) }));
    const answers = tasks.map(({ label, work }) => queue.run(label[0]!, work));
    await Promise.resolve();
    // Two slots: a's first and b's first; a's second waits although it was sent before b's.
    expect(log).toEqual(['a1', 'b1']);
    tasks[0]!.release(); // a1 ends: c has waited, a has just had its turn
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a1', 'b1', 'c1']);
    tasks[3]!.release(); // b1 ends: a's next
    await answers[3];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2']);
    for (const task of tasks) task.release();
    expect(await Promise.all(answers)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('a failed task gives its turn on', async () => {
    const queue = new FairQueue(1);
    const failed = queue.run('a', () => Promise.reject(new Error('rusak')));
    const next = queue.run('a', () => Promise.resolve('lanjut'));
    await expect(failed).rejects.toThrow('rusak');
    expect(await next).toBe('lanjut');
  });
});
