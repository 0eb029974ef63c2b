// Placeholder for the Form Poin - Request Top-Up screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminPointRequestsPage() {
  return <PageHeader title="Form Poin - Request Top-Up" />;
}
