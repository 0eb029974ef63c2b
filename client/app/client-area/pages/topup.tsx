// Top Up Poin (/topup): price tiers, the request form priced by the shared rule, and the payment
// instructions with the bank account and the QR code (with SPEC section 7's source order).
import { CheckCircle2, Coins, Landmark, QrCode, Tags } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  CreatePointRequestSchema,
  TOPUP_MAX_MESSAGE,
  TOPUP_MAX_POINTS,
  TOPUP_REQUIRED_MESSAGE,
  topupPointsProblem,
} from '../../../../common/points.ts';
import { computePrice, findTier, type PricingTier } from '../../../../common/pricing.ts';
import type { Settings } from '../../../../common/settings.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card.tsx';
import { Input, Textarea } from '../../../components/ui/input.tsx';
import { describedBy, Field } from '../../../components/ui/label.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toastError, toastSuccess } from '../../../components/ui/toast.ts';
import { useMe } from '../../../features/auth/api.ts';
import { useCreatePointRequest } from '../../../features/points/client-api.ts';
import { usePricing } from '../../../features/pricing/client-api.ts';
import { fetchQrData, usePublicSettings } from '../../../features/settings/client-api.ts';
import { qrFileName, qrImageSource } from '../../../features/settings/qr-source.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { formatNumber, formatRupiah } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { useConsoleError } from '../../../lib/use-console-error.ts';

/** A per-point price may have decimals (SPEC: decimal, IDR); whole prices read as 'Rp600'. */
const formatPricePerPoint = (price: number) =>
  Number.isInteger(price) ? formatRupiah(price) : `Rp${formatNumber(price)}`;

const STEPS = [
  'Pilih jumlah poin yang ingin dibeli (klik salah satu tier atau isi sendiri).',
  'Transfer sesuai total harga ke rekening di atas atau bayar lewat QR Code.',
  'Upload bukti transfer ke layanan hosting gambar lalu tempel link-nya (opsional).',
  'Klik tombol "Buat Request Top-Up".',
  'Tunggu approval dari admin.',
  'Poin akan masuk otomatis ke akun Anda setelah request disetujui.',
];

export default function TopupPage() {
  const session = useSession();
  const me = useMe();
  const pricing = usePricing();
  const settings = usePublicSettings();
  const createRequest = useCreatePointRequest();
  const [pointsText, setPointsText] = useState('');
  const [proofUrl, setProofUrl] = useState('');
  useConsoleError(pricing.error, 'daftar harga');
  useConsoleError(settings.error, 'informasi pembayaran');

  const tiers = pricing.data ?? [];
  const balance = me.data?.points ?? session?.user.points ?? 0;
  const points = Number(pointsText);
  // The price exists as soon as points are typed (Rp0 when no tier prices them).
  const amount = pointsText.trim() === '' ? null : computePrice(points, tiers);
  const tier = pointsText.trim() === '' ? undefined : findTier(points, tiers);
  const sending = createRequest.isPending;
  // Said as soon as it is typed, not only on submit: the price of such a request means nothing.
  const pointsError = points > TOPUP_MAX_POINTS ? TOPUP_MAX_MESSAGE : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (pointsText.trim() === '' || amount === null) return void toastError(TOPUP_REQUIRED_MESSAGE);
    const problem = topupPointsProblem(points);
    if (problem) {
      // Back to the field, where the limit is also said, rather than left at the button below.
      document.getElementById('topup-points')?.focus();
      return void toastError(problem);
    }
    const parsed = CreatePointRequestSchema.safeParse({
      points_requested: points,
      amount_paid: amount,
      payment_proof_url: proofUrl.trim() || null,
    });
    if (!parsed.success) return void toastError(parsed.error.issues[0]?.message);
    try {
      await createRequest.mutateAsync(parsed.data);
      toastSuccess(
        `Request top-up ${formatNumber(parsed.data.points_requested)} poin berhasil dibuat. Menunggu approval admin.`,
        'Request Berhasil',
      );
      setPointsText('');
      setProofUrl('');
    } catch (failure) {
      toastError(errorMessage(failure, 'Gagal membuat request top-up'));
    }
  };

  const proofHint =
    'Upload gambar bukti transfer ke layanan hosting gambar (mis. imgur) atau Google Drive yang dibagikan publik, lalu tempel link-nya di sini.';

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Top Up Poin"
        description="Beli poin untuk mengirim blast WhatsApp. Pilih jumlah poin, lakukan transfer, lalu buat request top-up untuk disetujui admin."
      />

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

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="grid grid-cols-1 gap-6 lg:col-span-3">
          <Card>
            <CardHeader>
              <CardTitle>Daftar Harga</CardTitle>
              <CardDescription>Klik salah satu tier untuk mengisi jumlah poin.</CardDescription>
            </CardHeader>
            <CardContent>
              {pricing.isPending ? (
                <div className="flex justify-center p-6">
                  <Spinner />
                </div>
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
                        active={tier?.id === item.id}
                        onSelect={() => setPointsText(String(item.min_points))}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Form Request Top-Up</CardTitle>
            </CardHeader>
            <CardContent>
              <form onSubmit={submit} noValidate className="grid gap-5" aria-label="Form top-up">
                <Field id="topup-points" label="Jumlah Poin" required error={pointsError}>
                  <Input
                    id="topup-points"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={TOPUP_MAX_POINTS}
                    step={1}
                    required
                    placeholder="Contoh: 100"
                    value={pointsText}
                    onChange={(event) => setPointsText(event.target.value)}
                    aria-invalid={pointsError ? true : undefined}
                    aria-describedby={
                      [describedBy('topup-points', pointsError), tier ? 'topup-tier-note' : null]
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                  />
                </Field>
                <Field id="topup-amount" label="Total Harga">
                  <Input
                    id="topup-amount"
                    readOnly
                    placeholder="Harga akan dihitung otomatis"
                    value={amount === null ? '' : formatRupiah(amount)}
                    className={amount === null ? undefined : 'font-semibold'}
                  />
                </Field>
                {tier && (
                  <div
                    id="topup-tier-note"
                    className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg bg-primary-soft px-3 py-2 text-sm font-medium text-primary"
                  >
                    <p className="flex items-center gap-2" data-tier-note="">
                      <CheckCircle2 aria-hidden className="size-4 shrink-0" />
                      Menggunakan tier: {formatNumber(tier.min_points)} -{' '}
                      {formatNumber(tier.max_points)} poin
                    </p>
                    <p className="font-semibold" data-tier-note-price="">
                      {tier.tier_name} · {formatPricePerPoint(tier.price_per_point)}/poin
                    </p>
                  </div>
                )}
                {!tier && amount === 0 && points > 0 && tiers.length > 0 && (
                  <Alert variant="warning">Jumlah poin ini belum ada di daftar harga.</Alert>
                )}
                <Field id="topup-proof" label="URL Bukti Transfer (Opsional)" hint={proofHint}>
                  <Textarea
                    id="topup-proof"
                    rows={3}
                    placeholder="https://..."
                    value={proofUrl}
                    onChange={(event) => setProofUrl(event.target.value)}
                    aria-describedby={describedBy('topup-proof', undefined, proofHint)}
                  />
                </Field>
                <Button
                  type="submit"
                  size="lg"
                  className="w-full"
                  loading={sending}
                  disabled={pointsText.trim() === '' || amount === null}
                >
                  {sending ? 'Memproses...' : 'Buat Request Top-Up'}
                </Button>
              </form>
            </CardContent>
          </Card>
        </div>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Instruksi Pembayaran</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            {settings.isPending ? (
              <div className="flex justify-center p-6">
                <Spinner />
              </div>
            ) : (
              <PaymentInfo settings={settings.data} />
            )}
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
      </div>
    </div>
  );
}

function TierButton({
  tier,
  active,
  onSelect,
}: {
  tier: PricingTier;
  active: boolean;
  onSelect: () => void;
}) {
  // Stacked (name, range, price) so a long tier name never runs into the price.
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={active}
      className={cn(
        'flex h-full w-full min-w-0 cursor-pointer flex-col gap-1 rounded-lg border bg-card p-4 text-left transition-colors hover:border-primary/60 hover:bg-primary-soft/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        active && 'border-primary bg-primary-soft/60 ring-1 ring-primary',
      )}
    >
      <span className="flex items-start gap-2">
        <Tags aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span className="min-w-0 flex-1 break-words font-semibold" data-tier-name="">
          {tier.tier_name}
        </span>
        {active && <CheckCircle2 aria-hidden className="size-4 shrink-0 text-primary" />}
      </span>
      <span className="text-sm text-muted-foreground">
        {formatNumber(tier.min_points)} - {formatNumber(tier.max_points)} poin
      </span>
      <span className="mt-auto pt-1 text-base font-bold text-primary" data-tier-price="">
        {formatPricePerPoint(tier.price_per_point)}/poin
      </span>
    </button>
  );
}

function PaymentInfo({ settings }: { settings: Settings | undefined }) {
  const hasAccount = Boolean(settings?.account_number && settings.account_name);
  return (
    <>
      <div className="rounded-lg border p-4" data-bank-info="">
        <h3 className="mb-3 flex items-center gap-2 text-sm font-semibold">
          <Landmark aria-hidden className="size-4 text-primary" />
          Transfer Bank
        </h3>
        {hasAccount && settings ? (
          <dl className="grid gap-2 text-sm">
            <InfoRow label="Bank" value={settings.bank_name || '-'} />
            <InfoRow label="Nomor Rekening" value={settings.account_number} mono />
            <InfoRow label="Atas Nama" value={settings.account_name} />
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">Informasi rekening belum tersedia</p>
        )}
      </div>
      {settings && hasQr(settings) && (
        <PaymentQr key={qrImageSource(settings)} settings={settings} />
      )}
    </>
  );
}

function InfoRow({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn('break-all font-semibold', mono && 'font-mono text-base')}>{value}</dd>
    </div>
  );
}

/** Whether the settings name any QR image at all. */
const hasQr = (settings: Settings) => qrImageSource(settings) !== null;

/** The absolute address of a QR source (shown when it cannot be loaded). */
const absolute = (source: string) => new URL(source, window.location.origin).href;

function PaymentQr({ settings }: { settings: Settings }) {
  const [src, setSrc] = useState(() => qrImageSource(settings));
  const [triedFallback, setTriedFallback] = useState(false);
  const [failed, setFailed] = useState(false);
  // The file's address is more useful to the admin than a long inline data URL.
  const fileSource = qrImageSource({ ...settings, qr_data_url: null });
  const shownUrl = fileSource ? absolute(fileSource) : 'QR Code tersimpan sebagai data gambar';

  const onError = async () => {
    if (triedFallback) return setFailed(true);
    setTriedFallback(true);
    const filename = qrFileName(settings);
    if (!filename) return setFailed(true);
    try {
      setSrc((await fetchQrData(filename)).data_url);
    } catch (failure) {
      console.error('QR Code gagal dimuat:', failure);
      setFailed(true);
    }
  };

  return (
    <div className="rounded-lg border p-4" data-payment-qr="">
      <h3 className="mb-3 flex items-center gap-2 text-sm font-semibold">
        <QrCode aria-hidden className="size-4 text-primary" />
        QR Code Pembayaran
      </h3>
      {failed || !src ? (
        <Alert variant="warning" title="QR Code tidak dapat dimuat" data-qr-error="">
          <p className="break-all font-mono text-xs">{shownUrl}</p>
          <p className="mt-1">Hubungi admin jika masalah ini berlanjut</p>
        </Alert>
      ) : (
        <figure className="grid justify-items-center gap-2">
          <img
            src={src}
            alt="QR Code pembayaran"
            className="size-56 rounded-lg border bg-white object-contain p-2"
            onError={() => void onError()}
          />
          <figcaption className="text-center text-sm text-muted-foreground">
            Scan QR Code di atas untuk pembayaran digital (QRIS / e-wallet)
          </figcaption>
        </figure>
      )}
    </div>
  );
}
