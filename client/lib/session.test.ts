// The session store: GET /auth/me keeps the stored user in step, and only a change is announced
// (each announcement renders every screen that reads the session again).
import { beforeAll, describe, expect, it } from 'vitest';
import type { User } from '#common/auth.ts';

// Node has no Web Storage: a Map-backed one with the methods session.ts calls.
const stored = new Map<string, string>();
beforeAll(() => {
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    },
    window: new EventTarget(),
  });
});

const user: User = {
  id: 'u1',
  username: 'Budi',
  email: 'budi@example.com',
  role: 'client',
  points: 120,
  is_active: true,
  created_at: '2026-11-01T00:00:00.000Z',
};

describe('updateSessionUser', () => {
  it('announces a changed user and stores it, and stays quiet for the same user', async () => {
    const session = await import('./session.ts');
    session.saveSession({ token: 't', user });
    let announced = 0;
    const stop = session.subscribeSession(() => (announced += 1));

    // The same user, as a fresh object from the server, in another key order.
    session.updateSessionUser(Object.fromEntries(Object.entries(user).reverse()) as User);
    expect(announced).toBe(0);

    session.updateSessionUser({ ...user, points: 250 });
    expect(announced).toBe(1);
    expect(session.getSession()?.user.points).toBe(250);
    expect((JSON.parse(stored.get('user')!) as User).points).toBe(250);

    session.updateSessionUser({ ...user, points: 250, is_active: false });
    expect(announced).toBe(2);
    stop();
  });
});
