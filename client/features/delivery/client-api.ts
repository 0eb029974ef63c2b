// The message templates a client may send with (Cloud API mode): enabled by the admin and
// approved by Meta now. Read again every few seconds while the form is open, so a template Meta
// pauses (or the admin turns off) leaves it.
import { useQuery } from '@tanstack/react-query';
import type { ClientTemplate } from '#common/templates.ts';
import { api } from '#client/lib/api-client.ts';

const TEMPLATES_REFRESH_MS = 10_000;

export function useClientTemplates() {
  return useQuery({
    queryKey: ['client', 'templates'],
    queryFn: ({ signal }) => api.get<ClientTemplate[]>('/client/templates', { signal }),
    refetchInterval: TEMPLATES_REFRESH_MS,
  });
}
