// Placeholder for the Form Blast screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function BlastFormPage() {
  return <PageHeader title="Form Blast" />;
}
