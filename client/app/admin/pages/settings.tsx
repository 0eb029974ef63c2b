// Pengaturan (/settings): payment details and QR, the blast image switch, and the client's view.
import { zodResolver } from '@hookform/resolvers/zod';
import { Landmark, Save, Upload } from 'lucide-react';
import type { FormEvent } from 'react';
import { Controller, useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { SettingsInputSchema, type Settings } from '#common/settings.ts';
import type { z } from '#common/zod.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { RecordView } from '#client/components/ui/record-view.tsx';
import { Switch } from '#client/components/ui/switch.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { useAdminSettings, useSaveSettings } from '#client/features/settings/admin-api.ts';
import { ClientPreview } from '#client/features/settings/client-preview.tsx';
import { QrFileField, useQrFile, type QrFile } from '#client/features/settings/qr-file.tsx';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';

const PaymentFormSchema = SettingsInputSchema.pick({
  bank_name: true,
  account_number: true,
  account_name: true,
  allow_images: true,
});
type PaymentForm = z.input<typeof PaymentFormSchema>;
type PaymentValues = z.output<typeof PaymentFormSchema>;
type SettingsFormApi = UseFormReturn<PaymentForm, unknown, PaymentValues>;

const formValues = (settings: Settings): PaymentForm => ({
  bank_name: settings.bank_name,
  account_number: settings.account_number,
  account_name: settings.account_name,
  allow_images: settings.allow_images,
});

function PaymentCard({
  form,
  qr,
  settings,
}: {
  form: SettingsFormApi;
  qr: QrFile;
  settings: Settings;
}) {
  const { errors } = form.formState;
  return (
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
        <TextField
          id="bank-name"
          label="Nama Bank"
          error={errors.bank_name?.message}
          required
          placeholder="Contoh: BCA"
          {...form.register('bank_name')}
        />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="account-number"
            label="Nomor Rekening"
            error={errors.account_number?.message}
            required
            inputMode="numeric"
            placeholder="Contoh: 1234567890"
            {...form.register('account_number')}
          />
          <TextField
            id="account-name"
            label="Nama Pemilik Rekening"
            error={errors.account_name?.message}
            required
            placeholder="Nama sesuai rekening"
            {...form.register('account_name')}
          />
        </div>
        <QrFileField qr={qr} settings={settings} />
      </CardContent>
    </Card>
  );
}

function BlastFormCard({ form }: { form: SettingsFormApi }) {
  return (
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
                  Klien dapat melampirkan satu gambar (PNG, JPG, GIF, maksimal 5MB) pada blast. Saat
                  ini:{' '}
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
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSaveSettings();
  const form = useForm<PaymentForm, unknown, PaymentValues>({
    resolver: zodResolver(PaymentFormSchema),
    defaultValues: formValues(settings),
  });
  const live = useWatch({ control: form.control });
  const qr = useQrFile();

  const submit = (values: PaymentValues) =>
    runAction(
      async () => {
        const { barcode_url, qr_code_file, qr_data_url } = settings;
        const input = { ...values, barcode_url, qr_code_file, qr_data_url };
        const saved = await save.mutateAsync({ input, file: qr.file });
        form.reset(formValues(saved));
        qr.clear();
      },
      { done: 'Pengaturan berhasil disimpan', failed: 'Gagal menyimpan pengaturan' },
    );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.handleSubmit(submit)(event);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Pengaturan sistem">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid content-start gap-6">
          <PaymentCard form={form} qr={qr} settings={settings} />
          <BlastFormCard form={form} />
          <div className="flex justify-end">
            <Button type="submit" size="lg" loading={save.isPending} className="w-full sm:w-auto">
              {!save.isPending && <Save aria-hidden />}
              {save.isPending ? 'Menyimpan...' : 'Simpan Pengaturan'}
            </Button>
          </div>
        </div>
        <ClientPreview account={live} qr={qr} settings={settings} />
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
      <RecordView query={settings} loading="Memuat pengaturan..." failed="Gagal memuat pengaturan">
        {(record) => <SettingsForm settings={record} />}
      </RecordView>
    </div>
  );
}
