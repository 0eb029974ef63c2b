// The price tiers as clients read them (GET /pricing), to price a top-up.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PricingTier } from '#common/pricing.ts';
import { api } from '#client/lib/api-client.ts';

export const pricingQuery = queryOptions({
  queryKey: ['pricing'],
  queryFn: ({ signal }) => api.get<PricingTier[]>('/pricing', { signal }),
});

export function usePricing() {
  return useQuery(pricingQuery);
}
