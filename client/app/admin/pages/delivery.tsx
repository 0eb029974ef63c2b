// Pengiriman (/delivery): the delivery queue (the engine's state, what waits, today's failures),
// how blasts are delivered (by hand, through the WhatsApp Cloud API or a WhatsApp gateway), the
// chosen channel's settings with 'Tes Koneksi', the Cloud API's message templates, and the
// gateway's devices.
import { zodResolver } from '@hookform/resolvers/zod';
import { PlugZap, Save, Send } from 'lucide-react';
import { useEffect, type FormEvent } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { useBlocker } from 'react-router';
import type { ConnectionCheck, DeliverySettings } from '#common/delivery.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { RecordView } from '#client/components/ui/record-view.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import {
  useAdminDelivery,
  useSaveDelivery,
  useTestConnection,
} from '#client/features/delivery/admin-api.ts';
import { CloudApiCard } from '#client/features/delivery/cloud-api-card.tsx';
import { DevicesCard } from '#client/features/delivery/devices-card.tsx';
import { GatewayCard } from '#client/features/delivery/gateway-card.tsx';
import {
  DeliveryFormSchema,
  deliveryFormValues,
  type DeliveryForm,
} from '#client/features/delivery/delivery-form.ts';
import { QueueCard } from '#client/features/delivery/queue-card.tsx';
import { TemplatesCard } from '#client/features/delivery/templates-card.tsx';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';

const MODES = [
  {
    value: 'manual',
    label: 'Manual',
    description: 'Admin mengirim blast sendiri di luar Sebar, lalu mengisi hasilnya.',
  },
  {
    value: 'cloud_api',
    label: 'WhatsApp Cloud API',
    description:
      'Sebar mengirim blast sendiri dengan template resmi dan mencatat hasil tiap nomor.',
  },
  {
    value: 'gateway',
    label: 'WhatsApp Gateway (WAHA)',
    description:
      'Sebar mengirim pesan bebas dari nomor WhatsApp biasa melalui WAHA, bergiliran antar perangkat dengan jeda seperti manusia.',
  },
] as const;

function ModeCard({
  register,
  unsaved,
}: {
  register: UseFormRegister<DeliveryForm>;
  /** The chosen mode differs from the saved one. */
  unsaved: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send aria-hidden className="size-5 text-primary" />
          Mode Pengiriman
        </CardTitle>
        <CardDescription>Mode berlaku untuk blast baru.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="grid gap-3">
          <legend className="sr-only">Mode Pengiriman</legend>
          {MODES.map(({ value, label, description }) => (
            <label
              key={value}
              className="flex cursor-pointer items-start gap-3 rounded-lg border p-4 has-[:checked]:border-primary has-[:checked]:bg-primary-soft"
            >
              <input
                type="radio"
                value={value}
                className="mt-1 size-4 accent-primary"
                {...register('mode')}
              />
              <span className="grid gap-1">
                <span className="font-medium">{label}</span>
                <span className="text-sm text-muted-foreground">{description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {unsaved && (
          <p className="mt-3 text-sm font-medium text-warning" data-mode-unsaved="">
            Mode belum disimpan: klik Simpan Pengaturan di bawah.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Leaving Pengiriman with changes not saved asks first: a link in the menu or the back button by
 * this dialog, a reload or a closed tab by the browser's own.
 */
function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => !open && blocker.reset?.()}
      title="Perubahan belum disimpan"
      description="Pengaturan pengiriman yang diubah belum disimpan. Tinggalkan halaman ini tanpa menyimpan?"
      confirmLabel="Tinggalkan"
      cancelLabel="Tetap di sini"
      variant="default"
      onConfirm={() => blocker.proceed?.()}
    />
  );
}

function ConnectionResult({ check }: { check: ConnectionCheck }) {
  return (
    <Alert variant={check.ok ? 'success' : 'destructive'} data-connection-check="">
      {check.message}
    </Alert>
  );
}

function DeliveryFormView({ settings }: { settings: DeliverySettings }) {
  const save = useSaveDelivery();
  const test = useTestConnection();
  const form = useForm({
    resolver: zodResolver(DeliveryFormSchema),
    defaultValues: deliveryFormValues(settings),
  });
  const dirty = form.formState.isDirty;
  const mode = useWatch({ control: form.control, name: 'mode' });
  const gateway = mode === 'gateway';

  const submit = form.handleSubmit((values) =>
    runAction(
      async () => {
        const saved = await save.mutateAsync(values);
        form.reset(deliveryFormValues(saved));
        test.reset();
      },
      {
        done: 'Pengaturan pengiriman berhasil disimpan',
        failed: 'Gagal menyimpan pengaturan pengiriman',
      },
    ),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => submit(event);
  const runTest = () => runAction(() => test.mutateAsync(), { failed: 'Gagal menguji koneksi' });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Pengaturan pengiriman" className="grid gap-6">
      <UnsavedChangesGuard dirty={dirty && !save.isPending} />
      <ModeCard register={form.register} unsaved={mode !== settings.mode} />
      {gateway ? (
        <GatewayCard
          register={form.register}
          errors={form.formState.errors}
          saved={settings.gateway}
        />
      ) : (
        <CloudApiCard
          register={form.register}
          errors={form.formState.errors}
          saved={settings.cloud_api}
        />
      )}
      {test.data && <ConnectionResult check={test.data} />}
      <div className="flex flex-col items-stretch gap-3 sm:flex-row sm:items-center sm:justify-end">
        {dirty && (
          <p className="text-sm text-muted-foreground">
            Simpan perubahan dulu sebelum menguji koneksi.
          </p>
        )}
        <Button
          type="button"
          variant="outline"
          size="lg"
          disabled={dirty}
          loading={test.isPending}
          onClick={() => void runTest()}
        >
          {!test.isPending && <PlugZap aria-hidden />}
          {test.isPending ? 'Menguji...' : 'Tes Koneksi'}
        </Button>
        <Button type="submit" size="lg" loading={save.isPending}>
          {!save.isPending && <Save aria-hidden />}
          {save.isPending ? 'Menyimpan...' : 'Simpan Pengaturan'}
        </Button>
      </div>
    </form>
  );
}

export default function AdminDeliveryPage() {
  const delivery = useAdminDelivery();
  useLoadErrorToast(delivery, 'Gagal memuat pengaturan pengiriman');

  return (
    <div className="max-w-5xl">
      <PageHeader
        title="Pengiriman"
        description="Atur cara blast dikirim: manual oleh admin, otomatis melalui WhatsApp Cloud API, atau melalui WhatsApp Gateway (WAHA)."
      />
      <QueueCard className="mb-6" />
      <RecordView
        query={delivery}
        loading="Memuat pengaturan pengiriman..."
        failed="Gagal memuat pengaturan pengiriman"
      >
        {(settings) => (
          <div className="grid gap-6">
            <DeliveryFormView settings={settings} />
            {settings.mode === 'gateway' ? <DevicesCard /> : <TemplatesCard />}
          </div>
        )}
      </RecordView>
    </div>
  );
}
