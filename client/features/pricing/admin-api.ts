// The admin's price tiers: list, create, update, delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PricingTier, PricingTierInput } from '#common/pricing.ts';
import { api } from '#client/lib/api-client.ts';

export const adminPricingKey = ['admin', 'pricing'] as const;

export function useAdminPricing() {
  return useQuery({
    queryKey: adminPricingKey,
    queryFn: ({ signal }) => api.get<PricingTier[]>('/admin/pricing', { signal }),
  });
}

/** Create (no id) or update (with id); the list reloads after either. */
export function useSaveTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: PricingTierInput }) =>
      id
        ? api.put<PricingTier>(`/admin/pricing/${id}`, input)
        : api.post<PricingTier>('/admin/pricing', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPricingKey }),
  });
}

export function useDeleteTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/admin/pricing/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPricingKey }),
  });
}
