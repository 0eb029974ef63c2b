// The admin's message templates: the synced list, the sync from the Cloud API, and the switch
// that offers a template to clients.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Template } from '#common/templates.ts';
import { api } from '#client/lib/api-client.ts';

export const adminTemplatesKey = ['admin', 'delivery', 'templates'] as const;
/** Meta's template status webhooks change a status between syncs: the list is read again. */
export const TEMPLATES_REFRESH_MS = 15_000;

export function useAdminTemplates() {
  return useQuery({
    queryKey: adminTemplatesKey,
    queryFn: ({ signal }) => api.get<Template[]>('/admin/delivery/templates', { signal }),
    refetchInterval: TEMPLATES_REFRESH_MS,
  });
}

/** 'Sinkronkan Template': the server reads Meta's list and answers the synced one. */
export function useSyncTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Template[]>('/admin/delivery/templates/sync'),
    onSuccess: (list) => queryClient.setQueryData(adminTemplatesKey, list),
  });
}

export function useSetTemplateEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      api.put<Template>(`/admin/delivery/templates/${id}`, { enabled }),
    // The one row as answered, so the switch settles without reloading the list.
    onSuccess: (saved) =>
      queryClient.setQueryData<Template[]>(adminTemplatesKey, (list) =>
        list?.map((template) => (template.id === saved.id ? saved : template)),
      ),
  });
}
