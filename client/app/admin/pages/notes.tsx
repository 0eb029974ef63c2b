// Placeholder for the Notepad Admin screen; replaced by the screen's owner.
import { PageHeader } from '../../../components/ui/page-header.tsx';

export default function AdminNotesPage() {
  return <PageHeader title="Notepad Admin" />;
}
