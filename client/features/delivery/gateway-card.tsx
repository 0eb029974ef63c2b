// The WhatsApp Gateway card of 'Pengiriman': where WAHA is, its API key and the webhook secret
// (both write-only), the first session's name, and the human pacing of every device.
import { Smartphone } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { WAHA_WEBHOOK_PATH, type GatewaySettings } from '#common/delivery.ts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { PasswordField } from '#client/components/ui/password-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import type { DeliveryForm } from './delivery-form.ts';

const SECRETS = [
  { name: 'api_key', label: 'API Key', id: 'gateway-api-key' },
  { name: 'webhook_secret', label: 'Webhook Secret', id: 'gateway-webhook-secret' },
] as const;

export function GatewayCard({
  register,
  errors,
  saved,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
  saved: GatewaySettings;
}) {
  const error = errors.gateway;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Smartphone aria-hidden className="size-5 text-primary" />
          WhatsApp Gateway (WAHA)
        </CardTitle>
        <CardDescription>
          Alamat server WAHA dan API key-nya. API key dan webhook secret disimpan terenkripsi dan
          tidak pernah ditampilkan lagi.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="gateway-base-url"
            label="Base URL"
            placeholder="http://127.0.0.1:3000"
            error={error?.base_url?.message}
            {...register('gateway.base_url')}
          />
          <TextField
            id="gateway-session"
            label="Nama Sesi Utama"
            hint="Huruf, angka, _ dan -. Perangkat lain ditambahkan di Perangkat."
            error={error?.session?.message}
            {...register('gateway.session')}
          />
        </div>
        {SECRETS.map(({ name, label, id }) => (
          <PasswordField
            key={name}
            id={id}
            label={label}
            autoComplete="off"
            error={error?.[name]?.message}
            hint={saved[`${name}_set`] ? 'Tersimpan. Kosongkan jika tidak diubah.' : 'Belum diisi.'}
            {...register(`gateway.${name}`)}
          />
        ))}
        <div className="grid items-start gap-4 sm:grid-cols-3">
          <TextField
            id="gateway-min-delay"
            label="Jeda Minimal (detik)"
            inputMode="numeric"
            error={error?.min_delay_seconds?.message}
            {...register('gateway.min_delay_seconds')}
          />
          <TextField
            id="gateway-max-delay"
            label="Jeda Maksimal (detik)"
            inputMode="numeric"
            error={error?.max_delay_seconds?.message}
            {...register('gateway.max_delay_seconds')}
          />
          <TextField
            id="gateway-daily-limit"
            label="Batas Harian per Perangkat"
            inputMode="numeric"
            error={error?.daily_limit_per_device?.message}
            {...register('gateway.daily_limit_per_device')}
          />
        </div>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="gateway-sending-hours"
            label="Jam Kirim (WIB)"
            hint="Misalnya 08:00-20:00. Di luar jam ini pengiriman menunggu."
            error={error?.sending_hours?.message}
            {...register('gateway.sending_hours')}
          />
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
        </div>
        <TextField
          id="gateway-webhook-url"
          label="Webhook Sebar"
          readOnly
          value={`${window.location.origin}${WAHA_WEBHOOK_PATH}`}
          hint="Sebar mendaftarkan alamat ini sendiri di setiap sesi WAHA, ditandatangani dengan Webhook Secret."
        />
      </CardContent>
    </Card>
  );
}
