// The payment QR picked on Pengaturan: checked at once, previewed, and shown beside the saved one.
import { ImageOff, QrCode, Upload, X } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import {
  IMAGE_MIME_TYPES,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
  type Settings,
} from '#common/settings.ts';
import { Button, buttonVariants } from '#client/components/ui/button.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { toastError } from '#client/components/ui/toast.ts';
import { useDataUrl } from '#client/components/ui/use-data-url.ts';
import { cn } from '#client/lib/cn.ts';
import { formatMegabytes } from '#client/lib/format.ts';
import { SavedQr } from './saved-qr.tsx';

const HINT = 'Opsional. PNG, JPG atau GIF, maksimal 5MB.';

/** SPEC section 5: PNG, JPG or GIF, at most 5 MB. */
function checkImage(file: File): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

export const hasSavedQr = (settings: Settings) =>
  Boolean(settings.qr_data_url || settings.qr_code_file || settings.barcode_url);

/** The chosen file, its refusal and its preview. */
export function useQrFile() {
  // A new key gives a fresh native input, so the same file can be picked again.
  const [inputKey, setInputKey] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  const data = useDataUrl(file);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const problem = checkImage(chosen);
    if (problem) {
      setError(problem);
      toastError(problem);
      event.target.value = '';
      return;
    }
    setError(null);
    setBroken(false);
    setFile(chosen);
  };
  /** Forgets the file (after saving it, or when removed); the same file may be picked again. */
  const clear = () => {
    setFile(null);
    setBroken(false);
    setInputKey((key) => key + 1);
  };
  const remove = () => {
    clear();
    // Back to the picker once React has drawn it again.
    requestAnimationFrame(() => document.getElementById('qr-file')?.focus());
  };
  return {
    inputKey,
    file,
    error,
    previewUrl: data === 'error' ? null : data,
    previewFailed: broken || data === 'error',
    choose,
    clear,
    remove,
    markBroken: () => setBroken(true),
  };
}

export type QrFile = ReturnType<typeof useQrFile>;

/** The native picker stays the focusable control (visually hidden); an Indonesian label shows. */
function QrPicker({ qr }: { qr: QrFile }) {
  return (
    <Field id="qr-file" label="QR Code Pembayaran" hint={HINT} error={qr.error ?? undefined}>
      <div className="flex flex-wrap items-center gap-3">
        <input
          key={qr.inputKey}
          id="qr-file"
          type="file"
          accept="image/*"
          onChange={qr.choose}
          aria-invalid={!!qr.error}
          aria-describedby={describedBy('qr-file', qr.error ?? undefined, HINT)}
          className="peer sr-only"
        />
        <label
          htmlFor="qr-file"
          aria-hidden
          className={cn(
            buttonVariants({ variant: 'outline', size: 'sm' }),
            'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2',
          )}
        >
          <Upload aria-hidden />
          Pilih File
        </label>
        <span aria-hidden className="min-w-0 truncate text-sm text-muted-foreground">
          {qr.file ? qr.file.name : 'Belum ada file dipilih'}
        </span>
      </div>
    </Field>
  );
}

function NewQr({ qr, file }: { qr: QrFile; file: File }) {
  return (
    <div className="grid gap-2" data-qr-new="">
      <p className="text-sm font-medium">QR Code baru (belum disimpan)</p>
      <div className="flex flex-wrap items-end gap-3">
        {(qr.previewUrl || qr.previewFailed) && (
          <div className="grid justify-items-start gap-2">
            {qr.previewFailed ? (
              <p
                role="alert"
                className="flex items-center gap-2 rounded-lg border border-dashed border-destructive/40 bg-destructive-soft p-3 text-sm text-destructive"
              >
                <ImageOff aria-hidden className="size-4" />
                Preview tidak dapat dimuat
              </p>
            ) : (
              <img
                src={qr.previewUrl ?? undefined}
                alt="Preview QR Code baru"
                onError={qr.markBroken}
                className="size-48 rounded-lg border bg-white object-contain p-2"
              />
            )}
          </div>
        )}
        <Button variant="outline" size="sm" onClick={qr.remove}>
          <X aria-hidden />
          Hapus File
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        {file.name} ({formatMegabytes(file.size)})
      </p>
    </div>
  );
}

function CurrentQr({ settings }: { settings: Settings }) {
  if (!hasSavedQr(settings)) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <QrCode aria-hidden className="size-4" />
        Belum ada QR Code yang disimpan.
      </p>
    );
  }
  return (
    <div className="grid gap-2" data-qr-saved="">
      <p className="text-sm font-medium">QR Code saat ini</p>
      <SavedQr
        settings={settings}
        alt="QR Code pembayaran saat ini"
        failure={
          <>
            <span className="font-medium">QR Code tidak dapat dimuat</span>
            <span className="text-xs">Silakan upload ulang QR Code lalu simpan pengaturan.</span>
          </>
        }
      />
    </div>
  );
}

/** The picker, then the new file's preview, else the saved QR, else a note that there is none. */
export function QrFileField({ qr, settings }: { qr: QrFile; settings: Settings }) {
  return (
    <>
      <QrPicker qr={qr} />
      {qr.file ? <NewQr qr={qr} file={qr.file} /> : <CurrentQr settings={settings} />}
    </>
  );
}
