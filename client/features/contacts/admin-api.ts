// The admin's contacts (shown to clients): list, create, update, delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, ContactInput } from '#common/contacts.ts';
import { api } from '#client/lib/api-client.ts';

export const adminContactsKey = ['admin', 'contacts'] as const;

export function useAdminContacts() {
  return useQuery({
    queryKey: adminContactsKey,
    queryFn: ({ signal }) => api.get<Contact[]>('/admin/contacts', { signal }),
  });
}

/** Create (no id) or update (with id); the list reloads after either. */
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ContactInput }) =>
      id
        ? api.put<Contact>(`/admin/contacts/${id}`, input)
        : api.post<Contact>('/admin/contacts', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminContactsKey }),
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/contacts/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminContactsKey }),
  });
}
