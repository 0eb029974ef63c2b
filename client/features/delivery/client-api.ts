// The message templates a client may send with (Cloud API mode): enabled by the admin and
// approved by Meta now.
import { useQuery } from '@tanstack/react-query';
import type { ClientTemplate } from '#common/templates.ts';
import { api } from '#client/lib/api-client.ts';

export function useClientTemplates() {
  return useQuery({
    queryKey: ['client', 'templates'],
    queryFn: ({ signal }) => api.get<ClientTemplate[]>('/client/templates', { signal }),
  });
}
