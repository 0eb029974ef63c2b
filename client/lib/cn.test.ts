// cn() joins class names and lets the later of two conflicting Tailwind classes win.
import { expect, it } from 'vitest';
import { cn } from './cn.ts';

it('keeps resolving conflicts', () => {
  expect(cn('mb-6', 'mb-0')).toBe('mb-0');
  expect(cn('size-10 px-4', 'max-sm:size-8', 'size-9')).toBe('px-4 max-sm:size-8 size-9');
  expect(cn('p-4', 'px-2')).toBe('p-4 px-2');
  expect(cn('px-2', 'p-4')).toBe('p-4');
  expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive');
  expect(cn('bg-primary', false, ['bg-warning'])).toBe('bg-warning');
});
