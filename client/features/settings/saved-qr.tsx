// The saved payment QR as an image: SPEC's source order, then GET /admin/qr-data/{filename} when
// that does not load, then a message.
import { ImageOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Settings } from '#common/settings.ts';
import { cn } from '#client/lib/cn.ts';
import { fetchAdminQrData } from './admin-api.ts';
import { qrFileName, qrImageSource } from './qr-source.ts';

type QrFields = Pick<Settings, 'qr_data_url' | 'qr_code_file' | 'barcode_url'>;

export interface SavedQrProps {
  settings: QrFields;
  alt: string;
  /** Shown when neither the image nor its fallback loads. */
  failure: ReactNode;
  className?: string;
}

export function SavedQr({ settings, alt, failure, className }: SavedQrProps) {
  const primary = qrImageSource(settings);
  const [state, setState] = useState<{ for: string | null; src: string | null; failed: boolean }>({
    for: primary,
    src: primary,
    failed: false,
  });
  // New settings (a save) start over from the first source.
  if (state.for !== primary) setState({ for: primary, src: primary, failed: false });
  const [triedFallback, setTriedFallback] = useState<string | null>(null);

  const onError = async () => {
    const filename = qrFileName(settings);
    if (!filename || triedFallback === primary) {
      setState((s) => ({ ...s, failed: true }));
      return;
    }
    setTriedFallback(primary);
    try {
      const { data_url } = await fetchAdminQrData(filename);
      setState((s) => ({ ...s, src: data_url }));
    } catch (error) {
      console.error('QR fallback failed', error);
      setState((s) => ({ ...s, failed: true }));
    }
  };

  if (!state.src) return null;
  if (state.failed) {
    return (
      <div
        role="alert"
        data-qr-error=""
        className={cn(
          'flex flex-col items-center gap-2 rounded-lg border border-dashed border-destructive/40 bg-destructive-soft p-4 text-center text-sm text-destructive',
          className,
        )}
      >
        <ImageOff aria-hidden className="size-6" />
        {failure}
      </div>
    );
  }
  return (
    <img
      src={state.src}
      alt={alt}
      onError={() => void onError()}
      className={cn('size-48 rounded-lg border bg-white object-contain p-2', className)}
    />
  );
}
