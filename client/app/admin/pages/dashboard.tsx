// Admin dashboard (/): welcome banner, whether Sebar's sending has stopped, four figures, pending
// activity and a quick menu.
import { useEffect } from 'react';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useMe } from '#client/features/auth/api.ts';
import {
  AdminQuickMenu,
  AdminRecentActivity,
  AdminStats,
  AdminWelcome,
} from '#client/features/dashboard/admin-dashboard-parts.tsx';
import { useAdminDashboard } from '#client/features/dashboard/admin-api.ts';
import { EngineNotice } from '#client/features/delivery/engine-notice.tsx';
import { useSession } from '#client/lib/session.ts';

export default function AdminDashboardPage() {
  const session = useSession();
  const me = useMe();
  const dashboard = useAdminDashboard();
  const username = me.data?.username ?? session?.user.username ?? 'Admin';

  // SPEC: a failed load is reported on the console only; the spinner stops.
  const { isError, error } = dashboard;
  useEffect(() => {
    if (isError) console.error('Gagal memuat dashboard admin', error);
  }, [isError, error]);

  if (dashboard.isPending) return <PageSpinner label="Memuat dashboard..." />;

  const stats = dashboard.data;
  return (
    <div className="grid gap-6">
      <AdminWelcome username={username} />
      <EngineNotice />
      <AdminStats stats={stats} />
      <div className="grid gap-6 lg:grid-cols-2">
        <AdminRecentActivity stats={stats} />
        <AdminQuickMenu />
      </div>
    </div>
  );
}
