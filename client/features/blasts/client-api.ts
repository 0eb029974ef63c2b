// The client's blasts: create (image first), the paginated list, one blast, and cancel.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type {
  Blast,
  BlastDetail,
  BlastPage,
  BlastStatus,
  CreateBlast,
  NumberStatus,
} from '#common/blasts.ts';
import type { z } from '#common/zod.ts';
import type { ImageUploadSchema } from '#common/settings.ts';
import { api } from '#client/lib/api-client.ts';
import { meQueryKey } from '#client/features/auth/api.ts';
import { refreshBlastList, refreshDetail } from './live-refresh.ts';

export const CLIENT_PAGE_SIZE = 5;
const blastsKey = ['client', 'blast-requests'] as const;

/** Client labels of a blast's status (SPEC: Menunggu, Selesai, Ditolak; cancel: Dibatalkan). */
export const CLIENT_BLAST_STATUS_LABELS: Record<BlastStatus, string> = {
  pending: 'Menunggu',
  completed: 'Selesai',
  rejected: 'Ditolak',
  cancelled: 'Dibatalkan',
};

/** Client labels of one number's status. */
export const CLIENT_NUMBER_STATUS_LABELS: Record<NumberStatus, string> = {
  pending: 'Menunggu',
  success: 'Berhasil',
  failed: 'Gagal',
  no_wa: 'No WA',
};

export function useClientBlasts(page: number) {
  return useQuery({
    queryKey: [...blastsKey, { page, page_size: CLIENT_PAGE_SIZE }],
    queryFn: ({ signal }) =>
      api.get<BlastPage>('/client/blast-requests', {
        query: { page, page_size: CLIENT_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
    // A client waiting for results sees them come in without reloading.
    refetchInterval: (query) => refreshBlastList(query.state.data?.items),
  });
}

export function useClientBlast(id: string | null) {
  const blast = useQuery({
    queryKey: [...blastsKey, id],
    queryFn: ({ signal }) => api.get<BlastDetail>(`/client/blast-requests/${id}`, { signal }),
    enabled: id !== null,
    // Each number's delivery, as the engine moves it.
    refetchInterval: (query) => refreshDetail(query.state.data),
  });
  useFollowRefund(blast.data);
  return blast;
}

/**
 * A refund that lands while the detail is open (the engine's settlement, a late failure) reaches
 * the shell's balance and the lists at once, not at their next read.
 */
function useFollowRefund(blast: Pick<Blast, 'id' | 'refund_points'> | undefined) {
  const queryClient = useQueryClient();
  const seen = useRef<{ id: string; refund: number } | null>(null);
  useEffect(() => {
    if (!blast) return;
    const before = seen.current;
    seen.current = { id: blast.id, refund: blast.refund_points };
    if (before?.id === blast.id && before.refund !== blast.refund_points) {
      void invalidateClientData(queryClient);
    }
  }, [blast, queryClient]);
}

export function uploadBlastImage(file: File) {
  const body = new FormData();
  body.append('image', file);
  return api.post<z.infer<typeof ImageUploadSchema>>('/upload/image', body);
}

/** Every client list and figure, and the balance in the shell. */
function invalidateClientData(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: meQueryKey }),
    queryClient.invalidateQueries({ queryKey: ['client'] }),
  ]);
}

export function useCreateBlast() {
  const queryClient = useQueryClient();
  return useMutation({
    // The key makes a repeated delivery of the same submission charge once.
    mutationFn: ({ input, idempotencyKey }: { input: CreateBlast; idempotencyKey: string }) =>
      api.post<Blast>('/client/blast-requests', input, {
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: () => invalidateClientData(queryClient),
  });
}

export function useCancelBlast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Blast>(`/client/blast-requests/${id}/cancel`),
    onSuccess: () => invalidateClientData(queryClient),
  });
}
