// Light/dark theme: stored under localStorage 'theme' ('dark' | 'light', default light).
import { useCallback, useState } from 'react';

export type Theme = 'light' | 'dark';
const THEME_KEY = 'theme';

export function storedTheme(): Theme {
  try {
    return localStorage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(THEME_KEY, theme);
  applyTheme(theme);
}

/** The theme and a toggle, for the client shell's header button. */
export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const [theme, setState] = useState<Theme>(storedTheme);
  const toggleTheme = useCallback(() => {
    setState((previous) => {
      const next = previous === 'dark' ? 'light' : 'dark';
      setTheme(next);
      return next;
    });
  }, []);
  return { theme, toggleTheme };
}
