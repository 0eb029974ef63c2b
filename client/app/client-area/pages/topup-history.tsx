// Placeholder for the Riwayat Top Up screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function TopupHistoryPage() {
  return <PageHeader title="Riwayat Top Up" />;
}
