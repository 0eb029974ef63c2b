// Placeholder for the Dashboard screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function ClientDashboardPage() {
  return <PageHeader title="Dashboard" />;
}
