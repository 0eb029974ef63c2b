// Placeholder for the Pengaturan Sistem screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminSettingsPage() {
  return <PageHeader title="Pengaturan Sistem" />;
}
