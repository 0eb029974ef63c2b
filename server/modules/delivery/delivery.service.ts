// The delivery settings: read with defaults (manual mode), saved with their secrets sealed (the
// gateway's with them, gateway.service.ts), and the connection check behind 'Tes Koneksi'.
import { strandingMessage } from '#common/blast-rules.ts';
import {
  CLOUD_API_DEFAULTS,
  CLOUD_API_SECRETS,
  missingForCloudApi,
  missingForGateway,
  type CloudApiSecret,
  type ConnectionCheck,
  type DeliveryInput,
  type DeliveryMode,
  type DeliverySettings,
} from '#common/delivery.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import { holdSingleRow, transact } from '#server/db/transaction.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { HttpError } from '#server/plugins/errors.ts';
import {
  GraphError,
  graphProblem,
  readPhoneNumber,
  readPhoneNumbers,
  readTemplates,
  type CloudApiCredentials,
  type PhoneNumber,
} from './cloud-api.ts';
import { rekeyDevices } from './devices.service.ts';
import { unsentNumbers } from './queue.service.ts';
import {
  checkGateway,
  gatewayAfter,
  gatewayConnectionOf,
  gatewayView,
  readGateway,
  writeGateway,
} from './gateway.service.ts';
import type { SecretBox } from './secret-box.ts';

/** The settings with their secrets opened: null when unset (or sealed under another key). */
export interface Delivery {
  mode: DeliveryMode;
  cloud_api: Omit<CloudApiCredentials, CloudApiSecret> & Record<CloudApiSecret, string | null>;
}

/** What an install that never saved its delivery settings has: manual mode, nothing set. */
const DEFAULT_DELIVERY: Delivery = {
  mode: 'manual',
  cloud_api: {
    ...CLOUD_API_DEFAULTS,
    phone_number_id: '',
    business_account_id: '',
    access_token: null,
    app_secret: null,
    verify_token: null,
    daily_recipient_limit: null,
  },
};

export async function readDelivery(db: Db, box: SecretBox): Promise<Delivery> {
  const row = await db
    .selectFrom('delivery_settings')
    .selectAll()
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) return DEFAULT_DELIVERY;
  const opened = (sealed: string | null) => (sealed ? box.open(sealed) : null);
  return {
    mode: row.mode,
    cloud_api: {
      graph_url: row.graph_url,
      api_version: row.api_version,
      phone_number_id: row.phone_number_id,
      business_account_id: row.business_account_id,
      access_token: opened(row.access_token),
      app_secret: opened(row.app_secret),
      verify_token: opened(row.verify_token),
      messages_per_second: row.messages_per_second,
      daily_recipient_limit: row.daily_recipient_limit,
    },
  };
}

/** How new blasts are delivered now. */
export async function readDeliveryMode(db: Db): Promise<DeliveryMode> {
  const row = await db
    .selectFrom('delivery_settings')
    .select('mode')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.mode ?? DEFAULT_DELIVERY.mode;
}

/** Every delivery setting as answered (the gateway's too), secrets only as whether set. */
export async function readSettings(db: Db, box: SecretBox): Promise<DeliverySettings> {
  const [delivery, gateway] = await Promise.all([readDelivery(db, box), readGateway(db, box)]);
  return { ...deliveryView(delivery), gateway: gatewayView(gateway) };
}

/** The settings as answered: each secret only as whether it is set. */
export function deliveryView({ mode, cloud_api }: Delivery): Omit<DeliverySettings, 'gateway'> {
  const { access_token, app_secret, verify_token, ...open } = cloud_api;
  return {
    mode,
    cloud_api: {
      ...open,
      access_token_set: access_token !== null,
      app_secret_set: app_secret !== null,
      verify_token_set: verify_token !== null,
    },
  };
}

/** The Cloud API's credentials when every one of them is set, else null. */
export function credentialsOf({ cloud_api }: Delivery): CloudApiCredentials | null {
  const { access_token, app_secret, verify_token } = cloud_api;
  if (!access_token || !app_secret || !verify_token) return null;
  if (!cloud_api.phone_number_id || !cloud_api.business_account_id) return null;
  return { ...cloud_api, access_token, app_secret, verify_token };
}

/**
 * Saves the settings. A secret left out keeps its stored value; the Cloud API mode is refused
 * (422, nothing saved) while something it needs is missing.
 */
export async function saveDelivery(
  database: DbHandle,
  box: SecretBox,
  input: DeliveryInput,
  actor: { id: string; webhookUrl: string },
): Promise<DeliverySettings> {
  // A new webhook secret goes to the devices' sessions first: their events signed with it are
  // refused only until the save commits, and WAHA retries them.
  const rekey = await webhookRekey(database.db, box, input);
  if (rekey) await rekeyDevices(database.db, rekey, actor.webhookUrl);
  try {
    await saveSettings(database, box, input, actor.id);
  } catch (error) {
    if (rekey) {
      const back = { ...rekey, from: rekey.to, to: rekey.from };
      await rekeyDevices(database.db, back, actor.webhookUrl).catch(() => null);
    }
    throw error;
  }
  return readSettings(database.db, box);
}

/** The devices' new webhook key, when the save changes the webhook secret of a reachable WAHA. */
async function webhookRekey(db: Db, box: SecretBox, input: DeliveryInput) {
  const before = await readGateway(db, box);
  const after = gatewayAfter(before, input.gateway);
  const connection = gatewayConnectionOf(after);
  const [from, to] = [before.webhook_secret, after.webhook_secret];
  if (!connection || from === null || to === null || from === to) return null;
  return { connection, from, to };
}

async function saveSettings(
  database: DbHandle,
  box: SecretBox,
  input: DeliveryInput,
  actorId: string,
) {
  await transact(database, async (tx) => {
    // Saves queue on the row, so each keeps the secrets the previous one left.
    await holdSingleRow(tx, 'delivery_settings', {
      id: 1,
      ...rowOf(DEFAULT_DELIVERY, box),
      updated_at: now(),
    });
    const before = await readDelivery(tx.db, box);
    const { access_token, app_secret, verify_token, ...open } = input.cloud_api;
    const given = { access_token, app_secret, verify_token };
    const secrets = Object.fromEntries(
      CLOUD_API_SECRETS.map((name) => [name, given[name] ?? before.cloud_api[name]]),
    ) as Record<CloudApiSecret, string | null>;
    const after: Delivery = { mode: input.mode, cloud_api: { ...open, ...secrets } };
    const gatewayBefore = await readGateway(tx.db, box);
    const gateway = gatewayAfter(gatewayBefore, input.gateway);
    const missing =
      (after.mode === 'cloud_api' && missingForCloudApi(deliveryView(after).cloud_api)) ||
      (after.mode === 'gateway' && missingForGateway(gatewayView(gateway)));
    if (missing) throw new HttpError(422, missing);
    await refuseStranding(tx.db, 'cloud_api', [
      missingForCloudApi(deliveryView(before).cloud_api),
      missingForCloudApi(deliveryView(after).cloud_api),
    ]);
    await refuseStranding(tx.db, 'gateway', [
      missingForGateway(gatewayView(gatewayBefore)),
      missingForGateway(gatewayView(gateway)),
    ]);
    if (input.gateway) await writeGateway(tx, box, gateway, gatewayBefore);
    const values = { ...rowOf(after, box), updated_at: now() };
    await tx.db
      .insertInto('delivery_settings')
      .values({ id: 1, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
    await recordAudit(tx.db, {
      actorId,
      action: 'delivery.update',
      targetType: 'delivery_settings',
      targetId: '1',
      before: { ...deliveryView(before), gateway: gatewayView(gatewayBefore) },
      after: { ...deliveryView(after), gateway: gatewayView(gateway) },
    });
  });
}

/**
 * A channel's blasts keep being sent after the mode moves on, with the channel's settings; a save
 * that leaves them incomplete (what was missing before and after) while some of its numbers are
 * still to be sent would strand those numbers and their points: refused (409), nothing saved.
 */
async function refuseStranding(
  db: Db,
  mode: 'cloud_api' | 'gateway',
  [missingBefore, missingAfter]: [string | null, string | null],
) {
  if (missingBefore !== null || missingAfter === null) return;
  const unsent = await unsentNumbers(db, mode);
  if (unsent > 0) throw new HttpError(409, strandingMessage(mode, unsent));
}

/** The settings as stored: the secrets sealed. */
function rowOf({ mode, cloud_api }: Delivery, box: SecretBox) {
  const { access_token, app_secret, verify_token, ...open } = cloud_api;
  const seal = (secret: string | null) => (secret === null ? null : box.seal(secret));
  return {
    mode,
    ...open,
    access_token: seal(access_token),
    app_secret: seal(app_secret),
    verify_token: seal(verify_token),
  };
}

/**
 * The phone number ID is not one of the business account's (a number of another account the
 * token reaches, Meta's test number say): templates would be read from one account and sent
 * from another. Names the numbers the account has, to copy the right ID.
 */
function notInAccount(credentials: CloudApiCredentials, phones: PhoneNumber[]): string {
  const { phone_number_id, business_account_id } = credentials;
  const listed = phones.map((p) => `${p.display_phone_number ?? '-'} (ID ${p.id})`).join(', ');
  return (
    `Phone Number ID ${phone_number_id} tidak terdaftar di WhatsApp Business Account ` +
    `${business_account_id}. ` +
    (listed ? `Nomor di akun ini: ${listed}` : 'Akun ini belum memiliki nomor telepon')
  );
}

/**
 * 'Tes Koneksi': finds the phone number among the business account's, reads the number itself and
 * the templates with the saved settings; in the gateway mode, asks WAHA instead.
 */
export async function checkConnection(db: Db, box: SecretBox): Promise<ConnectionCheck> {
  const delivery = await readDelivery(db, box);
  if (delivery.mode === 'gateway') return checkGateway(db, box);
  const failed = (message: string): ConnectionCheck => ({
    ok: false,
    message,
    display_phone_number: null,
    verified_name: null,
  });
  const credentials = credentialsOf(delivery);
  if (!credentials) {
    return failed(
      missingForCloudApi(deliveryView(delivery).cloud_api) ?? 'Pengaturan belum lengkap',
    );
  }
  try {
    const phones = await readPhoneNumbers(credentials);
    if (!phones.some((p) => p.id === credentials.phone_number_id)) {
      return failed(notInAccount(credentials, phones));
    }
    // The number's own node, which the sends are posted to, must answer this token too.
    const phone = await readPhoneNumber(credentials);
    await readTemplates(credentials);
    const name = phone.verified_name ? ` (${phone.verified_name})` : '';
    return {
      ok: true,
      message: `Terhubung ke WhatsApp Cloud API: ${phone.display_phone_number ?? phone.id}${name}`,
      display_phone_number: phone.display_phone_number ?? null,
      verified_name: phone.verified_name ?? null,
    };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return failed(graphProblem(error, credentials.graph_url));
  }
}
