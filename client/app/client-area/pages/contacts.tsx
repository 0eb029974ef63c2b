// Kontak Admin (/contacts): one card per active admin contact with its link, and static help.
import { Headset } from 'lucide-react';
import { Card } from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useClientContacts } from '#client/features/contacts/client-api.ts';
import { ContactCard, ContactHelp } from '#client/features/contacts/client-contact-parts.tsx';
import { useConsoleError } from '#client/lib/use-console-error.ts';

export default function ClientContactsPage() {
  const contacts = useClientContacts();
  // A failed load is logged only (SPEC); the screen then shows the empty state.
  useConsoleError(contacts.error, 'kontak admin');
  const list = contacts.data ?? [];

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Kontak Admin"
        description="Hubungi admin melalui salah satu kontak di bawah ini jika Anda membutuhkan bantuan."
      />

      <section className="flex items-start gap-4 rounded-2xl bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-6 text-white shadow-sm">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-white/15">
          <Headset aria-hidden className="size-6" />
        </span>
        <div>
          <h2 className="text-lg font-semibold">Butuh bantuan? Admin siap membantu 24/7</h2>
          <p className="mt-1 text-sm text-white">Rata-rata waktu respon kurang dari 1 jam.</p>
        </div>
      </section>

      {contacts.isPending ? (
        <PageSpinner label="Memuat kontak..." />
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={Headset}
            title="Kontak Sedang Disiapkan"
            description="Admin sedang menyiapkan informasi kontak. Silakan cek kembali nanti."
          />
        </Card>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Daftar kontak admin">
          {list.map((contact) => (
            <li key={contact.id}>
              <ContactCard contact={contact} />
            </li>
          ))}
        </ul>
      )}

      <ContactHelp />
    </div>
  );
}
