// The Cloud API card of 'Pengiriman': the account's ids, its secrets (write-only), the pacing,
// and the webhook address to enter at Meta.
import { KeyRound } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { WEBHOOK_PATH, type CloudApiSettings } from '#common/delivery.ts';
import { IconCard } from '#client/components/ui/card.tsx';
import type { DeliveryForm } from './delivery-form.ts';
import { FieldRow, SecretFields, WebhookField } from './settings-fields.tsx';

type Name = keyof DeliveryForm['cloud_api'];

const IDS = [
  { name: 'phone_number_id', id: 'cloud-phone-number-id', label: 'Phone Number ID' },
  {
    name: 'business_account_id',
    id: 'cloud-business-account-id',
    label: 'WhatsApp Business Account ID',
  },
] as const;

const SECRETS = [
  { name: 'access_token', label: 'Access Token', id: 'cloud-access-token' },
  { name: 'app_secret', label: 'App Secret', id: 'cloud-app-secret' },
  { name: 'verify_token', label: 'Verify Token', id: 'cloud-verify-token' },
] as const;

const PACING = [
  {
    name: 'messages_per_second',
    id: 'cloud-messages-per-second',
    label: 'Pesan per Detik',
    hint: 'Batas kecepatan kirim, 1 sampai 1.000 (bawaan 20).',
  },
  {
    name: 'daily_recipient_limit',
    id: 'cloud-daily-limit',
    label: 'Batas Penerima Harian',
    hint: 'Sesuai tier akun di Meta. Kosongkan jika tanpa batas.',
  },
] as const;

const GRAPH = [
  { name: 'graph_url', id: 'cloud-graph-url', label: 'Graph URL' },
  { name: 'api_version', id: 'cloud-api-version', label: 'Versi API' },
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
  const fields = {
    errors: errors.cloud_api,
    field: (name: Name) => register(`cloud_api.${name}`),
  };
  return (
    <IconCard
      icon={KeyRound}
      title="WhatsApp Cloud API"
      description="Data dari Meta for Developers (WhatsApp > API Setup). Token dan secret disimpan terenkripsi dan tidak pernah ditampilkan lagi."
    >
      <FieldRow fields={IDS} numeric {...fields} />
      <SecretFields secrets={SECRETS} saved={saved} {...fields} />
      <FieldRow fields={PACING} numeric {...fields} />
      <FieldRow fields={GRAPH} {...fields} />
      <WebhookField
        id="cloud-webhook-url"
        label="Callback URL Webhook"
        path={WEBHOOK_PATH}
        hint="Masukkan di Meta (WhatsApp > Configuration) bersama Verify Token di atas, lalu berlangganan field messages dan message_template_status_update."
      />
    </IconCard>
  );
}
