// Top Up Poin (/topup): the balance, the price tiers, the request form and how to pay.
import { Coins } from 'lucide-react';
import type { PricingTier } from '#common/pricing.ts';
import type { Settings } from '#common/settings.ts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useMe } from '#client/features/auth/api.ts';
import { TopupRequestForm, useTopupForm, type Topup } from '#client/features/points/topup-form.tsx';
import { usePricing } from '#client/features/pricing/client-api.ts';
import { TierButton } from '#client/features/pricing/tier-button.tsx';
import { usePublicSettings } from '#client/features/settings/client-api.ts';
import { PaymentInfo } from '#client/features/settings/payment-info.tsx';
import { formatNumber } from '#client/lib/format.ts';
import { useSession } from '#client/lib/session.ts';
import { useConsoleError } from '#client/lib/use-console-error.ts';

const STEPS = [
  'Pilih jumlah poin yang ingin dibeli (klik salah satu tier atau isi sendiri).',
  'Transfer sesuai total harga ke rekening di atas atau bayar lewat QR Code.',
  'Upload bukti transfer ke layanan hosting gambar lalu tempel link-nya (opsional).',
  'Klik tombol "Buat Request Top-Up".',
  'Tunggu approval dari admin.',
  'Poin akan masuk otomatis ke akun Anda setelah request disetujui.',
];

const centredSpinner = (
  <div className="flex justify-center p-6">
    <Spinner />
  </div>
);

function BalanceBanner({ balance }: { balance: number }) {
  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-6 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-white/15">
          <Coins aria-hidden className="size-6" />
        </span>
        <div>
          <p className="text-sm text-white">Poin Anda saat ini</p>
          <p className="text-3xl font-bold" data-topup-balance="">
            {formatNumber(balance)} poin
          </p>
        </div>
      </div>
      <p className="text-sm text-white">1 poin = 1 nomor WhatsApp</p>
    </section>
  );
}

function PriceList(props: { loading: boolean; tiers: PricingTier[]; topup: Topup }) {
  const { tiers, topup } = props;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Daftar Harga</CardTitle>
        <CardDescription>Klik salah satu tier untuk mengisi jumlah poin.</CardDescription>
      </CardHeader>
      <CardContent>
        {props.loading ? (
          centredSpinner
        ) : tiers.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
            Belum ada daftar harga tersedia
          </p>
        ) : (
          <ul
            className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3"
            aria-label="Tier harga"
          >
            {tiers.map((item) => (
              <li key={item.id} className="flex">
                <TierButton
                  tier={item}
                  active={topup.tier?.id === item.id}
                  onSelect={() => topup.choose(item)}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function Instructions({ loading, settings }: { loading: boolean; settings: Settings | undefined }) {
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Instruksi Pembayaran</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        {loading ? centredSpinner : <PaymentInfo settings={settings} />}
        <div>
          <h3 className="mb-2 text-sm font-semibold">Langkah-langkah</h3>
          <ol className="grid list-decimal gap-1.5 pl-5 text-sm text-muted-foreground">
            {STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      </CardContent>
    </Card>
  );
}

export default function TopupPage() {
  const session = useSession();
  const me = useMe();
  const pricing = usePricing();
  const settings = usePublicSettings();
  useConsoleError(pricing.error, 'daftar harga');
  useConsoleError(settings.error, 'informasi pembayaran');
  const tiers = pricing.data ?? [];
  const topup = useTopupForm(tiers);

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Top Up Poin"
        description="Beli poin untuk mengirim blast WhatsApp. Pilih jumlah poin, lakukan transfer, lalu buat request top-up untuk disetujui admin."
      />
      <BalanceBanner balance={me.data?.points ?? session?.user.points ?? 0} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="grid grid-cols-1 gap-6 lg:col-span-3">
          <PriceList loading={pricing.isPending} tiers={tiers} topup={topup} />
          <Card>
            <CardHeader>
              <CardTitle>Form Request Top-Up</CardTitle>
            </CardHeader>
            <CardContent>
              <TopupRequestForm topup={topup} tiers={tiers} />
            </CardContent>
          </Card>
        </div>
        <Instructions loading={settings.isPending} settings={settings.data} />
      </div>
    </div>
  );
}
