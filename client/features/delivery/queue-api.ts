// The delivery queue on 'Pengiriman', read every few seconds while the screen is open, and the
// admin's resume of a paused or stopped engine.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeliveryQueue } from '#common/delivery.ts';
import { api } from '#client/lib/api-client.ts';

export const deliveryQueueKey = ['admin', 'delivery', 'queue'] as const;
export const QUEUE_REFRESH_MS = 5_000;

export const deliveryQueueQuery = queryOptions({
  queryKey: deliveryQueueKey,
  queryFn: ({ signal }) => api.get<DeliveryQueue>('/admin/delivery/queue', { signal }),
});

export function useDeliveryQueue() {
  return useQuery({ ...deliveryQueueQuery, refetchInterval: QUEUE_REFRESH_MS });
}

/** 'Lanjutkan Pengiriman': the server answers the queue as it is after the resume. */
export function useResumeEngine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<DeliveryQueue>('/admin/delivery/resume'),
    onSuccess: (queue) => queryClient.setQueryData(deliveryQueueKey, queue),
  });
}
