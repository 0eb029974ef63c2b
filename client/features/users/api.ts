// The admin's client accounts: a server-paginated list with stats, create, edit, password, delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '#common/auth.ts';
import type { ChangePassword, CreateUser, UpdateUser, UserPage } from '#common/users.ts';
import { api } from '#client/lib/api-client.ts';
import { adminDashboardKey } from '#client/features/dashboard/admin-api.ts';

/** SPEC: admin clients, 5 per page. */
export const USERS_PAGE_SIZE = 5;
export const usersKey = ['admin', 'users'] as const;

export function useUsers(page: number) {
  return useQuery({
    queryKey: [...usersKey, { page, page_size: USERS_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<UserPage>('/admin/users', { query: { page, page_size: USERS_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: usersKey });
    await queryClient.invalidateQueries({ queryKey: adminDashboardKey });
  };
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (input: CreateUser) => api.post<User>('/admin/users', input),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateUser }) =>
      api.put<User>(`/admin/users/${id}`, input),
    onSuccess: invalidate,
  });
}

export function useChangeUserPassword() {
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ChangePassword }) =>
      api.put(`/admin/users/${id}/password`, input),
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/users/${id}`),
    onSuccess: invalidate,
  });
}

/** Ends the sign-in waits of an account (too many wrong passwords) from every address. */
export function useLiftSignInBlock() {
  return useMutation({
    mutationFn: (id: string) => api.delete<{ detail: string }>(`/admin/users/${id}/sign-in-block`),
  });
}
