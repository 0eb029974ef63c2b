// The client's payment instructions on Top Up: the bank account and the payment QR.
import { Landmark, QrCode } from 'lucide-react';
import { useState } from 'react';
import type { Settings } from '#common/settings.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { cn } from '#client/lib/cn.ts';
import { fetchQrData } from './client-api.ts';
import { qrFileName, qrImageSource } from './qr-source.ts';

export function PaymentInfo({ settings }: { settings: Settings | undefined }) {
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
      <dd className={cn('wrap-anywhere font-semibold', mono && 'font-mono text-base')}>{value}</dd>
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
          <p className="wrap-anywhere font-mono text-xs">{shownUrl}</p>
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
