// Placeholder for the Top Up Poin screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function TopupPage() {
  return <PageHeader title="Top Up Poin" />;
}
