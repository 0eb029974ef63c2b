// How blasts are delivered: by hand (manual, the default), through the WhatsApp Cloud API or
// through a self-hosted WhatsApp gateway (WAHA), and the settings each needs, with the gateway's
// devices. Secrets are write-only: answers say whether each is set.
import { parseSendingHours, SENDING_HOURS_PATTERN } from './sending-hours.ts';
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

/** Whether an address that looks like one opens as a URL (its host is valid, its port at most 65535). */
const opens = (value: string) => value === '' || URL.canParse(value);
const UNOPENABLE = (label: string) =>
  `${label} tidak valid: periksa nama host dan port (port maksimal 65535)`;

export const CloudApiInputSchema = z.strictObject({
  graph_url: text(200)
    .regex(/^https?:\/\/[^\s/?#]+(:\d+)?$/, 'Graph URL harus berupa alamat http(s) tanpa path')
    .refine(opens, UNOPENABLE('Graph URL'))
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

/** Where WAHA posts its events (each session's webhook, signed with the webhook secret). */
export const WAHA_WEBHOOK_PATH = '/api/webhooks/waha';

export const GATEWAY_PROVIDERS = ['waha'] as const;

/** The gateway settings that are kept encrypted and never answered. */
export const GATEWAY_SECRETS = ['api_key', 'webhook_secret'] as const;
export type GatewaySecret = (typeof GATEWAY_SECRETS)[number];

export const GATEWAY_DEFAULTS = {
  provider: 'waha',
  base_url: '',
  session: 'default',
  min_delay_seconds: 8,
  max_delay_seconds: 20,
  daily_limit_per_device: 500,
  sending_hours: '08:00-20:00',
  check_numbers: true,
} as const;
export const MAX_DELAY_SECONDS = 3600;

/** A WAHA session name (one device): letters, digits, `_` and `-`. */
export const SessionNameSchema = z
  .string()
  .regex(
    /^[a-zA-Z0-9_-]{1,54}$/,
    'Nama sesi hanya boleh huruf, angka, _ dan -, 1 sampai 54 karakter',
  );

const delay = (label: string, fallback: number) =>
  z
    .number()
    .int(`${label} harus bilangan bulat`)
    .min(1, `${label} minimal 1 detik`)
    .max(MAX_DELAY_SECONDS, `${label} maksimal ${MAX_DELAY_SECONDS} detik`)
    .default(fallback);

export const GatewayInputSchema = z
  .strictObject({
    provider: z.enum(GATEWAY_PROVIDERS).default(GATEWAY_DEFAULTS.provider),
    base_url: text(200)
      .regex(/^(https?:\/\/[^\s?#]+)?$/, 'Base URL harus berupa alamat http(s)')
      .refine(opens, UNOPENABLE('Base URL'))
      .default(GATEWAY_DEFAULTS.base_url),
    api_key: secret('API key'),
    session: SessionNameSchema.default(GATEWAY_DEFAULTS.session),
    webhook_secret: secret('Webhook secret'),
    min_delay_seconds: delay('Jeda minimal', GATEWAY_DEFAULTS.min_delay_seconds),
    max_delay_seconds: delay('Jeda maksimal', GATEWAY_DEFAULTS.max_delay_seconds),
    daily_limit_per_device: z
      .number()
      .int('Batas harian per perangkat harus bilangan bulat')
      .min(1, 'Batas harian per perangkat minimal 1')
      .default(GATEWAY_DEFAULTS.daily_limit_per_device),
    sending_hours: z
      .string()
      // Written as id-ID writes times too ('08.00 - 20.00'): kept as 'HH:MM-HH:MM'.
      .overwrite((hours) => hours.replace(/\s+/g, '').replaceAll('.', ':'))
      .regex(SENDING_HOURS_PATTERN, 'Jam kirim harus seperti 08:00-20:00')
      .refine(
        (hours) => parseSendingHours(hours) !== null,
        'Jam mulai kirim harus lebih awal dari jam selesai',
      )
      .default(GATEWAY_DEFAULTS.sending_hours),
    check_numbers: z.boolean().default(GATEWAY_DEFAULTS.check_numbers),
  })
  .refine((g) => g.min_delay_seconds <= g.max_delay_seconds, {
    message: 'Jeda maksimal tidak boleh lebih kecil dari jeda minimal',
    path: ['max_delay_seconds'],
  });
export type GatewayInput = z.infer<typeof GatewayInputSchema>;

export const DeliveryInputSchema = z.strictObject({
  mode: z.enum(DELIVERY_MODES),
  cloud_api: CloudApiInputSchema.default(CloudApiInputSchema.parse({})),
  /** Omitted: the gateway settings stay as saved. */
  gateway: GatewayInputSchema.optional(),
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

export const GatewaySettingsSchema = z.object({
  provider: z.enum(GATEWAY_PROVIDERS),
  base_url: z.string(),
  api_key_set: z.boolean(),
  session: z.string(),
  webhook_secret_set: z.boolean(),
  min_delay_seconds: z.number(),
  max_delay_seconds: z.number(),
  daily_limit_per_device: z.number(),
  sending_hours: z.string(),
  check_numbers: z.boolean(),
});
export type GatewaySettings = z.infer<typeof GatewaySettingsSchema>;

export const DeliverySettingsSchema = z.object({
  mode: z.enum(DELIVERY_MODES),
  cloud_api: CloudApiSettingsSchema,
  gateway: GatewaySettingsSchema,
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

/** What the gateway mode cannot run without, by the label the settings screen shows. */
export const GATEWAY_REQUIRED: [keyof GatewaySettings, string][] = [
  ['base_url', 'Base URL'],
  ['api_key_set', 'API key'],
  ['webhook_secret_set', 'Webhook secret'],
];

/** Indonesian: what is missing for the gateway mode, or null when nothing is. */
export function missingForGateway(settings: GatewaySettings): string | null {
  const missing = GATEWAY_REQUIRED.filter(([key]) => !settings[key]).map(([, label]) => label);
  return missing.length
    ? `Mode WhatsApp Gateway belum dapat dipakai: ${missing.join(', ')} harus diisi`
    : null;
}

/** WAHA's session states, and Sebar's own hold on a device shown over them. */
export const DEVICE_STATUSES = [
  'STOPPED',
  'STARTING',
  'SCAN_QR_CODE',
  'WORKING',
  'FAILED',
] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** A gateway device (one WAHA session) as 'Perangkat' lists it. */
export const DeviceSchema = z.object({
  session: z.string(),
  /** The paired number ('628…'), once WORKING. */
  phone: z.string().nullable(),
  push_name: z.string().nullable(),
  status: z.enum(DEVICE_STATUSES),
  /** Sebar's pause: until when (null with a reason: until the admin resumes) and why. */
  paused_until: z.string().nullable(),
  pause_reason: z.string().nullable(),
  error_code: z.number().nullable(),
  /** Numbers it took since midnight, Asia/Jakarta, as its daily limit counts them. */
  sent_today: z.number(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const DeviceListSchema = z.object({
  items: z.array(DeviceSchema),
  daily_limit: z.number(),
  /** Whether the statuses were just read from the gateway; false: as last heard (see `message`). */
  live: z.boolean(),
  /** Indonesian: why the gateway could not be asked, or null. */
  message: z.string().nullable(),
});
export type DeviceList = z.infer<typeof DeviceListSchema>;

export const DeviceInputSchema = z.strictObject({ session: SessionNameSchema });
export type DeviceInput = z.infer<typeof DeviceInputSchema>;

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
    /**
     * The last error Meta reported for the business phone number in the last 24 hours, halting
     * or not: its code, its meaning in Indonesian, Meta's own title and when it came.
     */
    warning: z
      .object({
        code: z.number(),
        meaning: z.string(),
        title: z.string().nullable(),
        at: z.string(),
      })
      .nullable(),
  }),
  waiting: z.number(),
  sending: z.number(),
  sent_today: z.number(),
  failed_today: z.number(),
  /**
   * Today's failures by Meta's code (null: Sebar's own, by its title), most first; numbers
   * withdrawn unsent (a cancel, a reject, an opt-out) are refunded but not counted.
   */
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
  /** In gateway mode only: the devices' human pacing in place of the Cloud API's rate. */
  gateway: z
    .object({
      /** Devices WORKING and not held: those that take numbers. */
      devices: z.number(),
      min_delay_seconds: z.number(),
      max_delay_seconds: z.number(),
      /** Numbers the ready devices took today (Jakarta's day), against their limits summed. */
      sent_today: z.number(),
      daily_limit: z.number(),
      /** 'HH:MM-HH:MM' (WIB); whether they are open now, else when they open. */
      sending_hours: z.string(),
      open: z.boolean(),
      opens_at: z.string().nullable(),
    })
    .optional(),
});
export type DeliveryQueue = z.infer<typeof DeliveryQueueSchema>;
