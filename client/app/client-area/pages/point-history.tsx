// Placeholder for the History Poin screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function PointHistoryPage() {
  return <PageHeader title="History Poin" />;
}
