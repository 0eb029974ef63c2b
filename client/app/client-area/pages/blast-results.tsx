// Placeholder for the Hasil Blast screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function ClientBlastResultsPage() {
  return <PageHeader title="Hasil Blast" />;
}
