// Placeholder for the Kontak Admin screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function ClientContactsPage() {
  return <PageHeader title="Kontak Admin" />;
}
