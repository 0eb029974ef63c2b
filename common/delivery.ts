// How blasts are delivered: by hand (manual, the default) or through the WhatsApp Cloud API, and
// the settings the Cloud API needs. Its secrets are write-only: answers say whether each is set.
import { text } from './text.ts';
import { z } from './zod.ts';

/** Where Meta posts the WhatsApp webhooks (the callback URL entered at Meta). */
export const WEBHOOK_PATH = '/api/webhooks/whatsapp';

export const DELIVERY_MODES = ['manual', 'cloud_api', 'gateway'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** The Cloud API settings that are kept encrypted and never answered. */
export const CLOUD_API_SECRETS = ['access_token', 'app_secret', 'verify_token'] as const;
export type CloudApiSecret = (typeof CLOUD_API_SECRETS)[number];

export const CLOUD_API_DEFAULTS = {
  graph_url: 'https://graph.facebook.com',
  api_version: 'v23.0',
  messages_per_second: 20,
} as const;
export const MAX_MESSAGES_PER_SECOND = 1000;

/** Meta's ids are digits. Empty: not set yet (manual mode needs none). */
const metaId = (label: string) =>
  text(32).regex(/^\d*$/, `${label} hanya boleh berisi angka`).default('');

/** A secret as the settings form sends it: omitted (or null) keeps the stored one. */
const secret = (label: string) =>
  z
    .string()
    .max(1000, `${label} maksimal 1000 karakter`)
    .trim()
    .min(1, `${label} tidak boleh kosong`)
    .nullish();

export const CloudApiInputSchema = z.strictObject({
  graph_url: text(200)
    .regex(/^https?:\/\/[^\s/?#]+(:\d+)?$/, 'Graph URL harus berupa alamat http(s) tanpa path')
    .default(CLOUD_API_DEFAULTS.graph_url),
  api_version: text(10)
    .regex(/^v\d{1,3}\.\d{1,3}$/, 'Versi API harus seperti v23.0')
    .default(CLOUD_API_DEFAULTS.api_version),
  phone_number_id: metaId('Phone Number ID'),
  business_account_id: metaId('WhatsApp Business Account ID'),
  access_token: secret('Access token'),
  app_secret: secret('App secret'),
  verify_token: secret('Verify token'),
  messages_per_second: z
    .number()
    .int('Pesan per detik harus bilangan bulat')
    .min(1, 'Pesan per detik minimal 1')
    .max(MAX_MESSAGES_PER_SECOND, `Pesan per detik maksimal ${MAX_MESSAGES_PER_SECOND}`)
    .default(CLOUD_API_DEFAULTS.messages_per_second),
  daily_recipient_limit: z
    .number()
    .int('Batas penerima harian harus bilangan bulat')
    .min(1, 'Batas penerima harian minimal 1')
    .nullable()
    .default(null),
});
export type CloudApiInput = z.infer<typeof CloudApiInputSchema>;

export const DeliveryInputSchema = z.strictObject({
  mode: z.enum(DELIVERY_MODES),
  cloud_api: CloudApiInputSchema.default(CloudApiInputSchema.parse({})),
});
export type DeliveryInput = z.infer<typeof DeliveryInputSchema>;

export const CloudApiSettingsSchema = z.object({
  graph_url: z.string(),
  api_version: z.string(),
  phone_number_id: z.string(),
  business_account_id: z.string(),
  access_token_set: z.boolean(),
  app_secret_set: z.boolean(),
  verify_token_set: z.boolean(),
  messages_per_second: z.number(),
  daily_recipient_limit: z.number().nullable(),
});
export type CloudApiSettings = z.infer<typeof CloudApiSettingsSchema>;

export const DeliverySettingsSchema = z.object({
  mode: z.enum(DELIVERY_MODES),
  cloud_api: CloudApiSettingsSchema,
});
export type DeliverySettings = z.infer<typeof DeliverySettingsSchema>;

/** What 'Tes Koneksi' found: `ok` with the number it reached, or what is wrong, in Indonesian. */
export const ConnectionCheckSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  display_phone_number: z.string().nullable(),
  verified_name: z.string().nullable(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheckSchema>;

/** What the Cloud API mode cannot run without, by the label the settings screen shows. */
export const CLOUD_API_REQUIRED: [keyof CloudApiSettings, string][] = [
  ['phone_number_id', 'Phone Number ID'],
  ['business_account_id', 'WhatsApp Business Account ID'],
  ['access_token_set', 'Access token'],
  ['app_secret_set', 'App secret'],
  ['verify_token_set', 'Verify token'],
];

/** Indonesian: what is missing for the Cloud API mode, or null when nothing is. */
export function missingForCloudApi(settings: CloudApiSettings): string | null {
  const missing = CLOUD_API_REQUIRED.filter(([key]) => !settings[key]).map(([, label]) => label);
  return missing.length
    ? `Mode Cloud API belum dapat dipakai: ${missing.join(', ')} harus diisi`
    : null;
}

/** The engine as the queue card shows it: off in manual mode (nothing is sent by Sebar). */
export const ENGINE_STATES = ['off', 'running', 'paused', 'stopped'] as const;
export type EngineState = (typeof ENGINE_STATES)[number];

/**
 * The delivery queue on 'Pengiriman': the engine's state, what waits and what is on its way,
 * today's sends and failures (the Asia/Jakarta day), the rate against its limit and the daily
 * recipient limit against what the last 24 hours used.
 */
export const DeliveryQueueSchema = z.object({
  mode: z.enum(DELIVERY_MODES),
  engine: z.object({
    state: z.enum(ENGINE_STATES),
    /** Indonesian, for the admin: why it is paused or stopped. */
    reason: z.string().nullable(),
    error_code: z.number().nullable(),
    since: z.string().nullable(),
    /** When a pause ends by itself; null: until the admin resumes. */
    resume_at: z.string().nullable(),
  }),
  waiting: z.number(),
  sending: z.number(),
  sent_today: z.number(),
  failed_today: z.number(),
  /** Today's failures by Meta's code (null: Sebar's own, by its title), most first. */
  failures_today: z.array(
    z.object({ code: z.number().nullable(), meaning: z.string(), count: z.number() }),
  ),
  rate: z.object({
    /** Messages per second allowed (the settings). */
    limit: z.number(),
    /** Sends per second over the last 60 seconds. */
    last_minute: z.number(),
  }),
  daily: z.object({
    /** Unique recipients per 24 hours; null: no limit. */
    limit: z.number().nullable(),
    /** Unique recipients sent to in the last 24 hours. */
    used: z.number(),
  }),
});
export type DeliveryQueue = z.infer<typeof DeliveryQueueSchema>;
