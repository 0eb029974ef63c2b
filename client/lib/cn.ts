// Class-name joining with Tailwind conflict resolution, used by every component.
import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

// The theme (client/styles.css) adds only colours and a font, which twMerge's default knows.
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
