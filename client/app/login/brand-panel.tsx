// The sign-in page's brand panel: what Sebar does, shown beside the form from lg up.
import { MessageCircle, ShieldCheck, Users, Zap } from 'lucide-react';

const FEATURES = [
  { icon: Zap, text: 'Kirim satu pesan ke ratusan nomor WhatsApp sekaligus' },
  { icon: ShieldCheck, text: 'Sistem poin yang transparan: 1 poin per nomor' },
  { icon: Users, text: 'Pantau hasil blast, top up dan riwayat poin' },
];

export function BrandPanel() {
  return (
    // After main in reading order (the h1 comes first), shown on the left from lg up.
    <aside
      aria-labelledby="brand-heading"
      className="relative hidden w-1/2 flex-col justify-between overflow-hidden bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-12 text-white lg:order-first lg:flex"
    >
      <div className="flex items-center gap-3">
        <span className="grid size-11 place-items-center rounded-xl bg-white/15">
          <MessageCircle aria-hidden className="size-6" />
        </span>
        <span className="text-2xl font-bold">Sebar</span>
      </div>
      <div className="max-w-md">
        <h2 id="brand-heading" className="text-4xl font-bold leading-tight">
          WhatsApp Blast Manager
        </h2>
        <p className="mt-4 text-lg text-white">
          Sistem manajemen WhatsApp blast profesional untuk menjangkau pelanggan Anda dengan cepat,
          terukur dan mudah dipantau.
        </p>
        <ul className="mt-8 grid gap-4">
          {FEATURES.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-center gap-3 text-white">
              <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-white/15">
                <Icon aria-hidden className="size-5" />
              </span>
              {text}
            </li>
          ))}
        </ul>
      </div>
      <p className="text-sm text-white">© 2025 Sebar. Hak cipta dilindungi.</p>
      <div
        aria-hidden
        className="pointer-events-none absolute -right-24 -top-24 size-80 rounded-full bg-white/10"
      />
      <div
        aria-hidden
        className="pointer-events-none absolute -bottom-32 -left-16 size-96 rounded-full bg-white/5"
      />
    </aside>
  );
}
