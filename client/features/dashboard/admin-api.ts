// The admin dashboard figures (GET /admin/dashboard).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminDashboard } from '#common/dashboard.ts';
import { api } from '#client/lib/api-client.ts';

export const adminDashboardKey = ['admin', 'dashboard'] as const;

export const adminDashboardQuery = queryOptions({
  queryKey: adminDashboardKey,
  queryFn: ({ signal }) => api.get<AdminDashboard>('/admin/dashboard', { signal }),
});

export function useAdminDashboard() {
  return useQuery(adminDashboardQuery);
}
