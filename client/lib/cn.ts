// Class-name joining with Tailwind conflict resolution, used by every component.
import { clsx, type ClassValue } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';
import { tailwindMergeConfig } from './tailwind-merge-config.ts';

// tailwind-merge with only the class groups client/ uses (scripts/tailwind-merge-config.ts).
const twMerge = createTailwindMerge(tailwindMergeConfig);

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
