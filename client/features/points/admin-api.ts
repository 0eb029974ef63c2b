// The admin's top-up requests: a server-paginated list and the approve/reject decisions.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PointRequest, PointRequestPage } from '#common/points.ts';
import { DEFAULT_PAGE_SIZE } from '#client/components/ui/pagination.tsx';
import { api } from '#client/lib/api-client.ts';
import { refreshAfter } from '#client/lib/query-client.ts';
import { adminDashboardKey } from '#client/features/dashboard/admin-api.ts';

/** SPEC leaves the admin page size open; the pagination control's own default is used. */
export const POINT_REQUESTS_PAGE_SIZE = DEFAULT_PAGE_SIZE;
export const adminPointRequestsKey = ['admin', 'point-requests'] as const;

export function useAdminPointRequests(page: number) {
  return useQuery({
    queryKey: [...adminPointRequestsKey, { page, page_size: POINT_REQUESTS_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<PointRequestPage>('/admin/point-requests', {
        query: { page, page_size: POINT_REQUESTS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useDecidePointRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'approve' | 'reject' }) =>
      api.post<PointRequest>(`/admin/point-requests/${id}/${action}`),
    ...refreshAfter(async () => {
      await queryClient.invalidateQueries({ queryKey: adminPointRequestsKey });
      await queryClient.invalidateQueries({ queryKey: adminDashboardKey });
    }),
  });
}
