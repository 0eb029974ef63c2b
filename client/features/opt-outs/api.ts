// The admin's opt-out list: a server-paginated, searchable list; add a number, remove one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OptOut, OptOutInput, OptOutPage } from '#common/opt-outs.ts';
import { api } from '#client/lib/api-client.ts';

export const OPT_OUTS_PAGE_SIZE = 10;
export const optOutsKey = ['admin', 'opt-outs'] as const;

export function useOptOuts(page: number, search: string) {
  return useQuery({
    queryKey: [...optOutsKey, { page, page_size: OPT_OUTS_PAGE_SIZE, search }],
    queryFn: ({ signal }) =>
      api.get<OptOutPage>('/admin/opt-outs', {
        query: { page, page_size: OPT_OUTS_PAGE_SIZE, search },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useAddOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OptOutInput) => api.post<OptOut>('/admin/opt-outs', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optOutsKey }),
  });
}

export function useRemoveOptOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (number: string) => api.delete(`/admin/opt-outs/${encodeURIComponent(number)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optOutsKey }),
  });
}
