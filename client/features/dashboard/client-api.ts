// The client dashboard's figures (GET /client/dashboard), refreshed every 30 seconds.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientDashboard } from '#common/dashboard.ts';
import { api } from '#client/lib/api-client.ts';
import { REFRESH_MS } from '#client/lib/query-client.ts';

export const clientDashboardKey = ['client', 'dashboard'] as const;

export const clientDashboardQuery = queryOptions({
  queryKey: clientDashboardKey,
  queryFn: ({ signal }) => api.get<ClientDashboard>('/client/dashboard', { signal }),
});

export function useClientDashboard() {
  return useQuery({ ...clientDashboardQuery, refetchInterval: REFRESH_MS });
}
