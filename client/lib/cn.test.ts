// cn() merges every pair of the app's class names exactly as tailwind-merge's default does: the
// cut-down configuration (scripts/tailwind-merge-config.ts) left out no group the app needs.
import { twMerge } from 'tailwind-merge';
import { expect, it } from 'vitest';
import { classNamesInClient } from '../../scripts/tailwind-merge-config.ts';
import { cn } from './cn.ts';

it('merges any two class names of client/ as the default tailwind-merge does', async () => {
  const names = await classNamesInClient();
  expect(names.length).toBeGreaterThan(300);
  const differ: string[] = [];
  for (const first of names) {
    for (const second of names) {
      const pair = `${first} ${second}`;
      if (cn(pair) !== twMerge(pair)) differ.push(`'${pair}': ${cn(pair)} / ${twMerge(pair)}`);
    }
  }
  // Run `node --import tsx scripts/tailwind-merge-config.ts` when this lists a pair.
  expect(differ.slice(0, 20)).toEqual([]);
}, 120_000);

it('keeps resolving conflicts', () => {
  expect(cn('mb-6', 'mb-0')).toBe('mb-0');
  expect(cn('size-10 px-4', 'max-sm:size-8', 'size-9')).toBe('px-4 max-sm:size-8 size-9');
  expect(cn('p-4', 'px-2')).toBe('p-4 px-2');
  expect(cn('px-2', 'p-4')).toBe('p-4');
  expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive');
});
