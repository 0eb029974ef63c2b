// Sign-in and the signed-in user (GET /auth/me under query key ['me']).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '#common/auth.ts';
import { api } from '#client/lib/api-client.ts';
import { updateSessionUser } from '#client/lib/session.ts';

export const meQueryKey = ['me'] as const;

export const meQuery = queryOptions({
  queryKey: meQueryKey,
  queryFn: async ({ signal }) => {
    const user = await api.get<User>('/auth/me', { signal });
    updateSessionUser(user);
    return user;
  },
});

/** The signed-in user with a fresh balance; invalidate ['me'] after anything that moves points. */
export function useMe() {
  return useQuery(meQuery);
}
