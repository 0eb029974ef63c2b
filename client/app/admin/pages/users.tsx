// Placeholder for the Manajemen Akun Klien screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminUsersPage() {
  return <PageHeader title="Manajemen Akun Klien" />;
}
