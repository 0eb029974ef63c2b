// Pengaturan (/settings): payment details and QR, the blast image switch, and the client's view.
import { zodResolver } from '@hookform/resolvers/zod';
import { ImageOff, Landmark, QrCode, Save, Upload, X } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  IMAGE_MIME_TYPES,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
  SettingsInputSchema,
  type Settings,
} from '../../../../common/settings.ts';
import type { z } from '../../../../common/zod.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { describedBy, Field, Label } from '../../../components/ui/label.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PageSpinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { toastError, toastSuccess } from '../../../components/ui/toast.ts';
import { useAdminSettings, useSaveSettings } from '../../../features/settings/admin-api.ts';
import { SavedQr } from '../../../features/settings/saved-qr.tsx';
import { cn } from '../../../lib/cn.ts';
import { failureText } from '../../../lib/api-client.ts';
import { formatMegabytes } from '../../../lib/format.ts';
import { useLoadErrorToast } from '../feedback.ts';

const PaymentFormSchema = SettingsInputSchema.pick({
  bank_name: true,
  account_number: true,
  account_name: true,
  allow_images: true,
});
type PaymentForm = z.input<typeof PaymentFormSchema>;
type PaymentValues = z.output<typeof PaymentFormSchema>;

/** SPEC section 5: PNG, JPG or GIF, at most 5 MB. */
function checkImage(file: File): string | null {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

/**
 * A chosen file as a data URL for its preview (the server's CSP allows data: images, not blob:).
 * 'error' when the browser cannot read it.
 */
function useDataUrl(file: File | null): string | 'error' | null {
  const [read, setRead] = useState<{ file: File; url: string | 'error' } | null>(null);
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () =>
      setRead({ file, url: typeof reader.result === 'string' ? reader.result : 'error' });
    reader.onerror = () => setRead({ file, url: 'error' });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return file && read?.file === file ? read.url : null;
}

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSaveSettings();
  const form = useForm<PaymentForm, unknown, PaymentValues>({
    resolver: zodResolver(PaymentFormSchema),
    defaultValues: {
      bank_name: settings.bank_name,
      account_number: settings.account_number,
      account_name: settings.account_name,
      allow_images: settings.allow_images,
    },
  });
  const { errors } = form.formState;
  const live = useWatch({ control: form.control });
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const previewData = useDataUrl(file);
  const previewUrl = previewData === 'error' ? null : previewData;
  const [previewBroken, setPreviewBroken] = useState(false);
  const previewFailed = previewBroken || previewData === 'error';

  const onChooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (!chosen) return;
    const problem = checkImage(chosen);
    if (problem) {
      setFileError(problem);
      toastError(problem);
      event.target.value = '';
      return;
    }
    setFileError(null);
    setPreviewBroken(false);
    setFile(chosen);
  };
  const removeFile = () => {
    setFile(null);
    setPreviewBroken(false);
    if (fileInput.current) fileInput.current.value = '';
    fileInput.current?.focus();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({
        input: {
          ...values,
          barcode_url: settings.barcode_url,
          qr_code_file: settings.qr_code_file,
          qr_data_url: settings.qr_data_url,
        },
        file,
      });
      form.reset({
        bank_name: saved.bank_name,
        account_number: saved.account_number,
        account_name: saved.account_name,
        allow_images: saved.allow_images,
      });
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      toastSuccess('Pengaturan berhasil disimpan');
    } catch (error) {
      toastError(failureText(error, 'Gagal menyimpan pengaturan'));
    }
  });

  const hasSavedQr = Boolean(settings.qr_data_url || settings.qr_code_file || settings.barcode_url);
  const newPreview = (previewUrl || previewFailed) && (
    <div className="grid justify-items-start gap-2">
      {previewFailed ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-lg border border-dashed border-destructive/40 bg-destructive-soft p-3 text-sm text-destructive"
        >
          <ImageOff aria-hidden className="size-4" />
          Preview tidak dapat dimuat
        </p>
      ) : (
        <img
          src={previewUrl ?? undefined}
          alt="Preview QR Code baru"
          onError={() => setPreviewBroken(true)}
          className="size-48 rounded-lg border bg-white object-contain p-2"
        />
      )}
    </div>
  );

  const accountReady = Boolean(live.account_number?.trim() && live.account_name?.trim());

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Pengaturan sistem">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Landmark aria-hidden className="size-5 text-primary" />
                Informasi Pembayaran
              </CardTitle>
              <CardDescription>
                Rekening dan QR Code yang dipakai klien untuk membayar top-up poin.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <Field id="bank-name" label="Nama Bank" error={errors.bank_name?.message} required>
                <Input
                  id="bank-name"
                  placeholder="Contoh: BCA"
                  aria-invalid={!!errors.bank_name}
                  aria-describedby={describedBy('bank-name', errors.bank_name?.message)}
                  {...form.register('bank_name')}
                />
              </Field>
              <div className="grid items-start gap-4 sm:grid-cols-2">
                <Field
                  id="account-number"
                  label="Nomor Rekening"
                  error={errors.account_number?.message}
                  required
                >
                  <Input
                    id="account-number"
                    inputMode="numeric"
                    placeholder="Contoh: 1234567890"
                    aria-invalid={!!errors.account_number}
                    aria-describedby={describedBy('account-number', errors.account_number?.message)}
                    {...form.register('account_number')}
                  />
                </Field>
                <Field
                  id="account-name"
                  label="Nama Pemilik Rekening"
                  error={errors.account_name?.message}
                  required
                >
                  <Input
                    id="account-name"
                    placeholder="Nama sesuai rekening"
                    aria-invalid={!!errors.account_name}
                    aria-describedby={describedBy('account-name', errors.account_name?.message)}
                    {...form.register('account_name')}
                  />
                </Field>
              </div>

              <Field
                id="qr-file"
                label="QR Code Pembayaran"
                hint="Opsional. PNG, JPG atau GIF, maksimal 5MB."
                error={fileError ?? undefined}
              >
                {/* The native picker speaks the browser's language; it stays the focusable control
                    (visually hidden) and a button-like label in Indonesian stands for it. */}
                <div className="flex flex-wrap items-center gap-3">
                  <input
                    ref={fileInput}
                    id="qr-file"
                    type="file"
                    accept="image/*"
                    onChange={onChooseFile}
                    aria-invalid={!!fileError}
                    aria-describedby={describedBy(
                      'qr-file',
                      fileError ?? undefined,
                      'Opsional. PNG, JPG atau GIF, maksimal 5MB.',
                    )}
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
                    {file ? file.name : 'Belum ada file dipilih'}
                  </span>
                </div>
              </Field>

              {file ? (
                <div className="grid gap-2" data-qr-new="">
                  <p className="text-sm font-medium">QR Code baru (belum disimpan)</p>
                  <div className="flex flex-wrap items-end gap-3">
                    {newPreview}
                    <Button variant="outline" size="sm" onClick={removeFile}>
                      <X aria-hidden />
                      Hapus File
                    </Button>
                  </div>
                  <p className="text-xs text-muted-foreground">
                    {file.name} ({formatMegabytes(file.size)})
                  </p>
                </div>
              ) : hasSavedQr ? (
                <div className="grid gap-2" data-qr-saved="">
                  <p className="text-sm font-medium">QR Code saat ini</p>
                  <SavedQr
                    settings={settings}
                    alt="QR Code pembayaran saat ini"
                    failure={
                      <>
                        <span className="font-medium">QR Code tidak dapat dimuat</span>
                        <span className="text-xs">
                          Silakan upload ulang QR Code lalu simpan pengaturan.
                        </span>
                      </>
                    }
                  />
                </div>
              ) : (
                <p className="flex items-center gap-2 text-sm text-muted-foreground">
                  <QrCode aria-hidden className="size-4" />
                  Belum ada QR Code yang disimpan.
                </p>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <Upload aria-hidden className="size-5 text-primary" />
                Pengaturan Form Blast
              </CardTitle>
              <CardDescription>Atur fitur yang tersedia di form blast klien.</CardDescription>
            </CardHeader>
            <CardContent>
              <Controller
                control={form.control}
                name="allow_images"
                render={({ field }) => (
                  <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
                    <div className="grid gap-1">
                      <Label htmlFor="allow-images">Izinkan upload gambar</Label>
                      <p id="allow-images-hint" className="text-sm text-muted-foreground">
                        Klien dapat melampirkan satu gambar (PNG, JPG, GIF, maksimal 5MB) pada
                        blast. Saat ini:{' '}
                        <span className="font-medium text-foreground" data-allow-images-state="">
                          {field.value ? 'Aktif' : 'Nonaktif'}
                        </span>
                      </p>
                    </div>
                    <Switch
                      id="allow-images"
                      checked={field.value}
                      onCheckedChange={field.onChange}
                      aria-describedby="allow-images-hint"
                    />
                  </div>
                )}
              />
            </CardContent>
          </Card>

          <div className="flex justify-end">
            <Button type="submit" size="lg" loading={save.isPending} className="w-full sm:w-auto">
              {!save.isPending && <Save aria-hidden />}
              {save.isPending ? 'Menyimpan...' : 'Simpan Pengaturan'}
            </Button>
          </div>
        </div>

        <Card className="h-fit lg:sticky lg:top-24" data-client-preview="">
          <CardHeader>
            <CardDescription>Preview tampilan untuk klien</CardDescription>
            <CardTitle as="h2">Informasi Top-Up Poin</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {accountReady ? (
              <dl className="grid gap-3 rounded-lg bg-muted p-4 text-sm">
                <div>
                  <dt className="text-muted-foreground">Bank</dt>
                  <dd className="font-semibold">{live.bank_name || '-'}</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Nomor Rekening</dt>
                  <dd className="font-mono text-base font-semibold tracking-wide">
                    {live.account_number}
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Atas Nama</dt>
                  <dd className="font-semibold">{live.account_name}</dd>
                </div>
              </dl>
            ) : (
              <Alert variant="warning">Informasi rekening belum tersedia</Alert>
            )}
            {(file || hasSavedQr) && (
              <div className="grid justify-items-center gap-2 text-center">
                {file ? (
                  previewFailed ? (
                    <p className="text-sm text-destructive">Preview tidak dapat dimuat</p>
                  ) : (
                    previewUrl && (
                      <img
                        src={previewUrl}
                        alt="QR Code pembayaran (preview klien)"
                        className="size-48 rounded-lg border bg-white object-contain p-2"
                      />
                    )
                  )
                ) : (
                  <SavedQr
                    settings={settings}
                    alt="QR Code pembayaran (preview klien)"
                    failure={<span>QR Code tidak dapat ditampilkan</span>}
                  />
                )}
                <p className="text-xs text-muted-foreground">
                  Scan QR Code untuk pembayaran digital
                </p>
              </div>
            )}
          </CardContent>
        </Card>
      </div>
    </form>
  );
}

export default function AdminSettingsPage() {
  const settings = useAdminSettings();
  useLoadErrorToast(settings, 'Gagal memuat pengaturan');

  return (
    <div>
      <PageHeader
        title="Pengaturan Sistem"
        description="Kelola informasi pembayaran, QR Code dan fitur form blast."
      />
      {settings.isPending ? (
        <PageSpinner label="Memuat pengaturan..." />
      ) : settings.isError ? (
        <div className="grid justify-items-start gap-3">
          <Alert variant="destructive">Gagal memuat pengaturan</Alert>
          <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
            Coba lagi
          </Button>
        </div>
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </div>
  );
}
