// The saved session (token + user in localStorage) as a small store React subscribes to.
import { useSyncExternalStore } from 'react';
import type { User } from '#common/auth.ts';

export interface Session {
  token: string;
  user: User;
}

const TOKEN_KEY = 'token';
const USER_KEY = 'user';
export const SESSION_EXPIRED_MESSAGE = 'Sesi Anda telah berakhir. Silakan masuk kembali.';

/** undefined: not read yet (main.tsx reads it before the first render); null: nobody is signed in. */
let current: Session | null | undefined;
/** A one-time message for the sign-in page (why the user was sent there). */
let notice: string | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** The saved session as stored, without making it the current one. */
export function readStoredSession(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const raw = localStorage.getItem(USER_KEY);
    if (!token || !raw) return null;
    const user = JSON.parse(raw) as User;
    if (!user || typeof user.username !== 'string' || typeof user.role !== 'string') return null;
    return { token, user };
  } catch {
    return null;
  }
}

/** Reads the saved session once at start-up. */
export function loadSession(): void {
  if (current !== undefined) return;
  current = readStoredSession();
  emit();
}

export function getSession(): Session | null | undefined {
  return current;
}

export function saveSession(session: Session): void {
  localStorage.setItem(TOKEN_KEY, session.token);
  localStorage.setItem(USER_KEY, JSON.stringify(session.user));
  current = session;
  notice = null;
  emit();
}

/** Whether two users have the same fields with the same values (a User's values are scalars). */
function sameUser(a: User, b: User): boolean {
  const keys = Object.keys(a) as (keyof User)[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * Keeps the stored user in step with the server (GET /auth/me). An unchanged user changes
 * nothing: every screen that reads the session would render again for it.
 */
export function updateSessionUser(user: User): void {
  if (!current || sameUser(current.user, user)) return;
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  current = { ...current, user };
  emit();
}

/** Signs out; `message` is shown once on the sign-in page. */
export function clearSession(message: string | null = null): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  current = null;
  notice = message;
  emit();
}

/** Returns the pending sign-in notice and forgets it. */
export function takeSessionNotice(): string | null {
  const message = notice;
  notice = null;
  return message;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes the same storage.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== TOKEN_KEY && event.key !== USER_KEY && event.key !== null) return;
    if (current === undefined) return;
    current = readStoredSession();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The session in a component: undefined while it is being read, null when signed out. */
export function useSession(): Session | null | undefined {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
