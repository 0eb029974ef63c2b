// The Cloud API card of 'Pengiriman': the account's ids, its secrets (write-only), the pacing,
// and the webhook address to enter at Meta.
import { KeyRound } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { WEBHOOK_PATH, type CloudApiSettings } from '#common/delivery.ts';
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
  { name: 'access_token', label: 'Access Token', id: 'cloud-access-token' },
  { name: 'app_secret', label: 'App Secret', id: 'cloud-app-secret' },
  { name: 'verify_token', label: 'Verify Token', id: 'cloud-verify-token' },
] as const;

export function CloudApiCard({
  register,
  errors,
  saved,
}: {
  register: UseFormRegister<DeliveryForm>;
  errors: FieldErrors<DeliveryForm>;
  saved: CloudApiSettings;
}) {
  const error = errors.cloud_api;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound aria-hidden className="size-5 text-primary" />
          WhatsApp Cloud API
        </CardTitle>
        <CardDescription>
          Data dari Meta for Developers (WhatsApp &gt; API Setup). Token dan secret disimpan
          terenkripsi dan tidak pernah ditampilkan lagi.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="cloud-phone-number-id"
            label="Phone Number ID"
            inputMode="numeric"
            error={error?.phone_number_id?.message}
            {...register('cloud_api.phone_number_id')}
          />
          <TextField
            id="cloud-business-account-id"
            label="WhatsApp Business Account ID"
            inputMode="numeric"
            error={error?.business_account_id?.message}
            {...register('cloud_api.business_account_id')}
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
            {...register(`cloud_api.${name}`)}
          />
        ))}
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="cloud-messages-per-second"
            label="Pesan per Detik"
            inputMode="numeric"
            hint="Batas kecepatan kirim, 1 sampai 1.000 (bawaan 20)."
            error={error?.messages_per_second?.message}
            {...register('cloud_api.messages_per_second')}
          />
          <TextField
            id="cloud-daily-limit"
            label="Batas Penerima Harian"
            inputMode="numeric"
            hint="Sesuai tier akun di Meta. Kosongkan jika tanpa batas."
            error={error?.daily_recipient_limit?.message}
            {...register('cloud_api.daily_recipient_limit')}
          />
        </div>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            id="cloud-graph-url"
            label="Graph URL"
            error={error?.graph_url?.message}
            {...register('cloud_api.graph_url')}
          />
          <TextField
            id="cloud-api-version"
            label="Versi API"
            error={error?.api_version?.message}
            {...register('cloud_api.api_version')}
          />
        </div>
        <TextField
          id="cloud-webhook-url"
          label="Callback URL Webhook"
          readOnly
          value={`${window.location.origin}${WEBHOOK_PATH}`}
          hint="Masukkan di Meta (WhatsApp > Configuration) bersama Verify Token di atas, lalu langganan field messages."
        />
      </CardContent>
    </Card>
  );
}
