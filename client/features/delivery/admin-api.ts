// The admin's delivery settings and the Cloud API connection check.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectionCheck, DeliveryInput, DeliverySettings } from '#common/delivery.ts';
import { api } from '#client/lib/api-client.ts';
import { devicesKey } from './devices-api.ts';
import { deliveryQueueKey } from './queue-api.ts';

export const adminDeliveryKey = ['admin', 'delivery'] as const;

export function useAdminDelivery() {
  return useQuery({
    queryKey: adminDeliveryKey,
    queryFn: ({ signal }) => api.get<DeliverySettings>('/admin/delivery', { signal }),
  });
}

export function useSaveDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeliveryInput) => api.put<DeliverySettings>('/admin/delivery', input),
    onSuccess: (saved) => {
      queryClient.setQueryData(adminDeliveryKey, saved);
      // The mode and the limits show on the queue card, the daily limit on the devices too.
      void queryClient.invalidateQueries({ queryKey: deliveryQueueKey });
      void queryClient.invalidateQueries({ queryKey: devicesKey });
    },
  });
}

/** 'Tes Koneksi': checks the saved settings against the Cloud API. */
export function useTestConnection() {
  return useMutation({
    mutationFn: () => api.post<ConnectionCheck>('/admin/delivery/test'),
  });
}
