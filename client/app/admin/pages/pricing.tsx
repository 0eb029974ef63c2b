// Placeholder for the Daftar Harga Poin screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminPricingPage() {
  return <PageHeader title="Daftar Harga Poin" />;
}
