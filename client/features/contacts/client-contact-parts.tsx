// Kontak Admin parts: one contact's card with its link, and the static help below the list.
import {
  AtSign,
  Camera,
  Clock,
  ExternalLink,
  Globe,
  Mail,
  MessageCircle,
  Send,
  type LucideIcon,
} from 'lucide-react';
import { contactLink, type Contact } from '#common/contacts.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';

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

export function ContactCard({ contact }: { contact: Contact }) {
  const { title, icon: Icon, action } = platformInfo(contact.platform);
  const href = contactLink(contact.platform, contact.value);
  return (
    <Card className="flex h-full flex-col gap-4 p-5" data-contact={contact.platform}>
      <div className="flex items-center gap-3">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary-soft text-primary">
          <Icon aria-hidden className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className="font-semibold">{title}</h2>
          <p className="wrap-anywhere text-sm text-muted-foreground">{contact.value}</p>
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
  );
}

export function ContactHelp() {
  return (
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
  );
}
