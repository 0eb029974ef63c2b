// Placeholder for the Manajemen Kontak screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminContactsPage() {
  return <PageHeader title="Manajemen Kontak" />;
}
