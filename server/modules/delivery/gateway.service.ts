// The WhatsApp gateway's settings (WAHA): read with defaults, saved with the delivery settings
// (secrets sealed), the connection the engine and the devices use, and 'Tes Koneksi'.
import {
  GATEWAY_DEFAULTS,
  missingForGateway,
  type ConnectionCheck,
  type GatewayInput,
  type GatewaySecret,
  type GatewaySettings,
} from '#common/delivery.ts';
import { bool, now, type Db } from '#server/db/connection.ts';
import type { GatewaySettingsTable } from '#server/db/schema.ts';
import type { Tx } from '#server/db/transaction.ts';
import type { SecretBox } from './secret-box.ts';
import { listSessions, WahaError, wahaProblem, type WahaConnection } from './waha.ts';

/** The gateway settings with their secrets opened: null when unset (or sealed under another key). */
export type Gateway = Omit<GatewaySettings, `${GatewaySecret}_set`> &
  Record<GatewaySecret, string | null>;

/** What an install that never saved its gateway settings has. */
export const DEFAULT_GATEWAY: Gateway = {
  ...GATEWAY_DEFAULTS,
  api_key: null,
  webhook_secret: null,
};

export async function readGateway(db: Db, box: SecretBox): Promise<Gateway> {
  const row = await db
    .selectFrom('gateway_settings')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) return DEFAULT_GATEWAY;
  const opened = (sealed: string | null) => (sealed ? box.open(sealed) : null);
  return {
    provider: row.provider,
    base_url: row.base_url,
    api_key: opened(row.api_key),
    session: row.session,
    webhook_secret: opened(row.webhook_secret),
    min_delay_seconds: row.min_delay_seconds,
    max_delay_seconds: row.max_delay_seconds,
    daily_limit_per_device: row.daily_limit_per_device,
    sending_hours: row.sending_hours,
    check_numbers: Boolean(row.check_numbers),
  };
}

/** The settings as answered: each secret only as whether it is set. */
export function gatewayView({ api_key, webhook_secret, ...open }: Gateway): GatewaySettings {
  return { ...open, api_key_set: api_key !== null, webhook_secret_set: webhook_secret !== null };
}

/** Where WAHA is and its key, when both are set; else null. */
export function gatewayConnectionOf(gateway: Gateway): WahaConnection | null {
  if (!gateway.base_url || !gateway.api_key) return null;
  return { base_url: gateway.base_url, api_key: gateway.api_key };
}

/** The settings after `input` (a secret left out keeps its saved value; no input: unchanged). */
export function gatewayAfter(before: Gateway, input: GatewayInput | undefined): Gateway {
  if (!input) return before;
  const { api_key, webhook_secret, ...open } = input;
  return {
    ...open,
    api_key: api_key ?? before.api_key,
    webhook_secret: webhook_secret ?? before.webhook_secret,
  };
}

/**
 * Writes the settings, secrets sealed (inside the delivery settings' save). A changed webhook
 * secret keeps the one it replaces, for the events signed with it still on their way.
 */
export async function writeGateway(
  tx: Tx,
  box: SecretBox,
  gateway: Gateway,
  before: Gateway,
): Promise<void> {
  const seal = (secret: string | null) => (secret === null ? null : box.seal(secret));
  const changed =
    before.webhook_secret !== null && before.webhook_secret !== gateway.webhook_secret;
  const values: Omit<
    GatewaySettingsTable,
    'id' | 'previous_webhook_secret' | 'webhook_secret_changed_at'
  > = {
    ...gateway,
    api_key: seal(gateway.api_key),
    webhook_secret: seal(gateway.webhook_secret),
    check_numbers: bool(gateway.check_numbers),
    updated_at: now(),
  };
  const previous = changed
    ? { previous_webhook_secret: seal(before.webhook_secret), webhook_secret_changed_at: now() }
    : {};
  await tx.db
    .insertInto('gateway_settings')
    .values({ id: 1, ...values, ...previous })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, ...previous }))
    .execute();
}

/** How long events signed with the webhook secret a change replaced are still taken. */
export const PREVIOUS_SECRET_MS = 60 * 60 * 1000;

/**
 * The keys a WAHA event may be signed with: the webhook secret, and for an hour after it changed
 * the one it replaced (WAHA retries an event with the signature it was first sent with).
 */
export async function webhookSecrets(db: Db, box: SecretBox, at = Date.now()): Promise<string[]> {
  const row = await db
    .selectFrom('gateway_settings')
    .select(['webhook_secret', 'previous_webhook_secret', 'webhook_secret_changed_at'])
    .where('id', '=', 1)
    .executeTakeFirst();
  const keys = row?.webhook_secret ? [row.webhook_secret] : [];
  const changedAt = Date.parse(row?.webhook_secret_changed_at ?? '');
  if (row?.previous_webhook_secret && at - changedAt < PREVIOUS_SECRET_MS)
    keys.push(row.previous_webhook_secret);
  return keys.flatMap((sealed) => {
    const key = box.open(sealed);
    return key ? [key] : [];
  });
}

/** 'Tes Koneksi' in the gateway mode: lists WAHA's sessions with the saved base URL and key. */
export async function checkGateway(db: Db, box: SecretBox): Promise<ConnectionCheck> {
  const gateway = await readGateway(db, box);
  const answer = (ok: boolean, message: string): ConnectionCheck => ({
    ok,
    message,
    display_phone_number: null,
    verified_name: null,
  });
  const connection = gatewayConnectionOf(gateway);
  if (!connection) {
    return answer(false, missingForGateway(gatewayView(gateway)) ?? 'Pengaturan belum lengkap');
  }
  // Another server at that address answers WAHA's session list with a 404 or something else.
  const notWaha = `Alamat ${gateway.base_url} tidak menjawab sebagai WAHA: daftar sesi /api/sessions tidak ditemukan`;
  try {
    const sessions = await listSessions(connection);
    if (!Array.isArray(sessions)) return answer(false, notWaha);
    return answer(true, `Terhubung ke WAHA di ${gateway.base_url} (${sessions.length} sesi)`);
  } catch (error) {
    if (!(error instanceof WahaError)) throw error;
    if (error.kind === 'answer' && error.status === 404)
      return answer(false, `${notWaha} (HTTP 404)`);
    return answer(false, wahaProblem(error, gateway.base_url));
  }
}
