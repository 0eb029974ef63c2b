// The admin contacts a client may reach (GET /client/contacts: active ones only).
import { useQuery } from '@tanstack/react-query';
import type { Contact } from '#common/contacts.ts';
import { api } from '#client/lib/api-client.ts';

export function useClientContacts() {
  return useQuery({
    queryKey: ['client', 'contacts'],
    queryFn: ({ signal }) => api.get<Contact[]>('/client/contacts', { signal }),
  });
}
