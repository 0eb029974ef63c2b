// Placeholder for the Hasil Blast WhatsApp screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminBlastResultsPage() {
  return <PageHeader title="Hasil Blast WhatsApp" />;
}
