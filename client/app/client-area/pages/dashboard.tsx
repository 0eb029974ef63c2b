// Client dashboard (/): today's figures, the balance, today's activity and quick links.
import { useQueryClient } from '@tanstack/react-query';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { meQueryKey, useMe } from '#client/features/auth/api.ts';
import { useClientDashboard } from '#client/features/dashboard/client-api.ts';
import {
  ClientPointStatus,
  ClientQuickLinks,
  ClientStats,
  ClientWelcome,
} from '#client/features/dashboard/client-dashboard-parts.tsx';
import { useSyncBalance } from '#client/features/points/client-api.ts';
import { useSession } from '#client/lib/session.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

export default function ClientDashboardPage() {
  const queryClient = useQueryClient();
  const session = useSession();
  const me = useMe();
  const dashboard = useClientDashboard();
  useConsoleError(dashboard.error, 'dashboard');
  useSyncBalance(dashboard.data?.current_points, dashboard.dataUpdatedAt);

  if (dashboard.isPending) return <PageSpinner label="Memuat dashboard..." />;

  // A failed load is logged only (SPEC); the screen then shows zeros.
  const stats = dashboard.data ?? {
    today_blasts: 0,
    points_used_today: 0,
    points_refunded_today: 0,
    total_blasts: 0,
    current_points: me.data?.points ?? 0,
  };
  const refresh = () => {
    void dashboard.refetch();
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <ClientWelcome
        username={me.data?.username ?? session?.user.username ?? ''}
        refreshing={dashboard.isFetching}
        onRefresh={refresh}
      />
      <ClientStats stats={stats} />
      <ClientPointStatus stats={stats} />
      <ClientQuickLinks />
    </div>
  );
}
