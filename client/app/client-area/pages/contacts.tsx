// Kontak Admin (/contacts): one card per active admin contact with its link, and static help.
import {
  AtSign,
  Camera,
  Clock,
  ExternalLink,
  Globe,
  Headset,
  Mail,
  MessageCircle,
  Send,
  type LucideIcon,
} from 'lucide-react';
import { contactLink } from '#common/contacts.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useClientContacts } from '#client/features/contacts/client-api.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

const PLATFORMS: Record<string, { title: string; icon: LucideIcon; action: string }> = {
  telegram: { title: 'Telegram', icon: Send, action: 'Chat di Telegram' },
  whatsapp: { title: 'WhatsApp', icon: MessageCircle, action: 'Chat di WhatsApp' },
  instagram: { title: 'Instagram', icon: Camera, action: 'Buka Instagram' },
  facebook: { title: 'Facebook', icon: Globe, action: 'Buka Facebook' },
  email: { title: 'Email', icon: Mail, action: 'Kirim Email' },
};

function platformInfo(platform: string) {
  const known = PLATFORMS[platform.toLowerCase()];
  if (known) return known;
  const title = platform ? platform.charAt(0).toUpperCase() + platform.slice(1) : 'Kontak';
  return { title, icon: AtSign, action: 'Hubungi' };
}

const REASONS = [
  'Top up poin belum masuk setelah transfer',
  'Blast belum diproses atau hasilnya tidak sesuai',
  'Kendala login atau akun',
  'Pertanyaan tentang harga dan paket poin',
];
const REQUIRED_INFO = [
  'Username akun Anda',
  'Penjelasan singkat masalah yang dialami',
  'Screenshot (jika ada)',
  'Waktu kejadian',
];

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
          {list.map((contact) => {
            const { title, icon: Icon, action } = platformInfo(contact.platform);
            const href = contactLink(contact.platform, contact.value);
            return (
              <li key={contact.id}>
                <Card className="flex h-full flex-col gap-4 p-5" data-contact={contact.platform}>
                  <div className="flex items-center gap-3">
                    <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary-soft text-primary">
                      <Icon aria-hidden className="size-5" />
                    </span>
                    <div className="min-w-0">
                      <h2 className="font-semibold">{title}</h2>
                      <p className="break-all text-sm text-muted-foreground">{contact.value}</p>
                    </div>
                  </div>
                  {href && (
                    <Button asChild variant="outline" className="mt-auto w-full">
                      <a href={href} target="_blank" rel="noopener noreferrer">
                        {action}
                        <ExternalLink aria-hidden />
                        <span className="sr-only"> (tab baru)</span>
                      </a>
                    </Button>
                  )}
                </Card>
              </li>
            );
          })}
        </ul>
      )}

      <div className="grid gap-4 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Kapan menghubungi admin?</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid list-disc gap-1.5 pl-5 text-sm text-muted-foreground">
              {REASONS.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Informasi yang perlu disiapkan</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid list-disc gap-1.5 pl-5 text-sm text-muted-foreground">
              {REQUIRED_INFO.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Waktu respon</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <div className="flex items-center gap-3">
                <Clock aria-hidden className="size-4 text-primary" />
                <dt className="flex-1 text-muted-foreground">Normal</dt>
                <dd className="font-semibold">&lt; 2 jam</dd>
              </div>
              <div className="flex items-center gap-3">
                <Clock aria-hidden className="size-4 text-destructive" />
                <dt className="flex-1 text-muted-foreground">Urgent</dt>
                <dd className="font-semibold">&lt; 30 menit</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
