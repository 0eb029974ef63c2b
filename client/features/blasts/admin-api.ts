// The admin's blast requests: a server-paginated list, results, per-number statuses and reject.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Blast,
  BlastDetail,
  BlastPage,
  BlastResultInput,
  BlastStatus,
  NumberStatus,
} from '#common/blasts.ts';
import { api } from '#client/lib/api-client.ts';
import { refreshAfter } from '#client/lib/query-client.ts';
import { adminDashboardKey } from '#client/features/dashboard/admin-api.ts';
import { refreshDetail, refreshWhileSending } from './live-refresh.ts';

/** SPEC: admin blast results, 5 per page. */
export const BLASTS_PAGE_SIZE = 5;
export const adminBlastsKey = ['admin', 'blast-requests'] as const;

export function useAdminBlasts(page: number) {
  return useQuery({
    queryKey: [...adminBlastsKey, { page, page_size: BLASTS_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<BlastPage>('/admin/blast-requests', {
        query: { page, page_size: BLASTS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
    // A Cloud API blast's counts move as the engine sends; manual results are the admin's own.
    refetchInterval: (query) => refreshWhileSending(query.state.data?.items),
  });
}

/** One blast with every number's delivery, followed while it is sent and its statuses settle. */
export function useAdminBlast(id: string) {
  return useQuery({
    queryKey: [...adminBlastsKey, id],
    queryFn: ({ signal }) => api.get<BlastDetail>(`/admin/blast-requests/${id}`, { signal }),
    refetchInterval: (query) => refreshDetail(query.state.data),
  });
}

function useInvalidateBlasts() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: adminBlastsKey });
    await queryClient.invalidateQueries({ queryKey: adminDashboardKey });
  };
}

export function useSubmitBlastResult() {
  const invalidate = useInvalidateBlasts();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: BlastResultInput }) =>
      api.post<Blast>(`/admin/blast-requests/${id}/result`, input),
    ...refreshAfter(invalidate),
  });
}

/** Sends only the changed numbers: index -> status. */
export function useSaveNumberStatuses() {
  const invalidate = useInvalidateBlasts();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Record<string, NumberStatus> }) =>
      api.post<Blast>(`/admin/blast-requests/${id}/number-statuses`, { number_statuses: changes }),
    ...refreshAfter(invalidate),
  });
}

export function useRejectBlast() {
  const invalidate = useInvalidateBlasts();
  return useMutation({
    mutationFn: (id: string) => api.post<Blast>(`/admin/blast-requests/${id}/reject`),
    ...refreshAfter(invalidate),
  });
}

/** Admin labels of a blast's status. */
export const ADMIN_BLAST_STATUS_LABELS: Record<BlastStatus, string> = {
  pending: 'Pending',
  completed: 'Selesai',
  rejected: 'Ditolak',
  cancelled: 'Dibatalkan',
};

/** Admin labels of one number's status, in the order the editor offers them. */
export const ADMIN_NUMBER_STATUS_LABELS: Record<NumberStatus, string> = {
  pending: 'Menunggu',
  success: 'Berhasil',
  failed: 'Gagal',
  no_wa: 'Tidak ada WA',
};
