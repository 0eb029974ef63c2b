// The WhatsApp Gateway card of 'Pengiriman': where WAHA is, its API key and the webhook secret
// (both write-only), the first session's name, and the human pacing of every device.
import { Smartphone } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { WAHA_WEBHOOK_PATH, type GatewaySettings } from '#common/delivery.ts';
import { IconCard } from '#client/components/ui/card.tsx';
import type { DeliveryForm } from './delivery-form.ts';
import { FieldRow, SecretFields, WebhookField } from './settings-fields.tsx';

type Name = keyof DeliveryForm['gateway'];

const SERVER = [
  {
    name: 'base_url',
    id: 'gateway-base-url',
    label: 'Base URL',
    placeholder: 'http://127.0.0.1:3000',
  },
  {
    name: 'session',
    id: 'gateway-session',
    label: 'Nama Sesi Utama',
    hint: "Nama yang disarankan untuk perangkat pertama di Perangkat (WAHA Core hanya menerima 'default'). Huruf, angka, _ dan -.",
  },
] as const;

const SECRETS = [
  { name: 'api_key', label: 'API Key', id: 'gateway-api-key' },
  { name: 'webhook_secret', label: 'Webhook Secret', id: 'gateway-webhook-secret' },
] as const;

const PACING = [
  { name: 'min_delay_seconds', id: 'gateway-min-delay', label: 'Jeda Minimal (detik)' },
  { name: 'max_delay_seconds', id: 'gateway-max-delay', label: 'Jeda Maksimal (detik)' },
  {
    name: 'daily_limit_per_device',
    id: 'gateway-daily-limit',
    label: 'Batas Harian per Perangkat',
  },
] as const;

const HOURS = [
  {
    name: 'sending_hours',
    id: 'gateway-sending-hours',
    label: 'Jam Kirim (WIB)',
    hint: 'Misalnya 08:00-20:00. Di luar jam ini pengiriman menunggu.',
  },
] as const;

/** Whether a number is checked for WhatsApp before it is sent to. */
function CheckNumbersOption({ register }: { register: UseFormRegister<DeliveryForm> }) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 sm:mt-6">
      <input
        type="checkbox"
        className="mt-1 size-4 accent-primary"
        {...register('gateway.check_numbers')}
      />
      <span className="grid gap-0.5">
        <span className="text-sm font-medium">Periksa nomor sebelum kirim</span>
        <span className="text-sm text-muted-foreground">
          Nomor tanpa WhatsApp tidak dikirimi dan poinnya dikembalikan.
        </span>
      </span>
    </label>
  );
}

export function GatewayCard({
  register,
  errors,
  saved,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
  saved: GatewaySettings;
}) {
  const fields = {
    errors: errors.gateway,
    field: (name: Name) => register(`gateway.${name}`),
  };
  return (
    <IconCard
      icon={Smartphone}
      title="WhatsApp Gateway (WAHA)"
      description="Alamat server WAHA dan API key-nya. API key dan webhook secret disimpan terenkripsi dan tidak pernah ditampilkan lagi."
    >
      <FieldRow fields={SERVER} {...fields} />
      <SecretFields secrets={SECRETS} saved={saved} {...fields} />
      <FieldRow fields={PACING} columns={3} numeric {...fields} />
      <FieldRow fields={HOURS} {...fields}>
        <CheckNumbersOption register={register} />
      </FieldRow>
      <WebhookField
        id="gateway-webhook-url"
        label="Webhook Sebar"
        path={WAHA_WEBHOOK_PATH}
        hint="Sebar mendaftarkan alamat ini sendiri di setiap sesi WAHA, ditandatangani dengan Webhook Secret."
      />
    </IconCard>
  );
}
