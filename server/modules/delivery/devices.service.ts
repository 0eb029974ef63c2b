// The gateway's devices: one WAHA session each. Sebar keeps each device's last heard status (the
// session.status webhooks update it; the list asks WAHA afresh when it can), what it sent today,
// and its own pause. Adding one creates the session with its webhook pointing back at Sebar.
import type { Device, DeviceList } from '#common/delivery.ts';
import { lastDeviceMessage } from '#common/blast-rules.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import type { GatewayDevicesTable } from '#server/db/schema.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { conflict, HttpError, notFound } from '#server/plugins/errors.ts';
import { gatewayConnectionOf, readGateway, type Gateway } from './gateway.service.ts';
import { takenToday } from './gateway-capacity.ts';
import { unsentNumbers } from './queue.service.ts';
import type { SecretBox } from './secret-box.ts';
import {
  createSession,
  deleteSession,
  pairingQr,
  readSession,
  SESSION_STATUSES,
  sessionAction,
  updateSession,
  WahaError,
  wahaProblem,
  type WahaConnection,
  type WahaSession,
  numberOfChat,
} from './waha.ts';

type DeviceRow = GatewayDevicesTable;

const NOT_SET_UP =
  'Gateway belum siap: isi Base URL, API key dan Webhook secret WhatsApp Gateway lalu simpan';

/** The gateway's settings and connection, or 422 when they are not enough to reach it. */
async function gatewayOf(
  db: Db,
  box: SecretBox,
): Promise<Gateway & { connection: WahaConnection }> {
  const gateway = await readGateway(db, box);
  const connection = gatewayConnectionOf(gateway);
  if (!connection || !gateway.webhook_secret) throw new HttpError(422, NOT_SET_UP);
  return { ...gateway, connection };
}

/** A failed WAHA call as an answer: 502 with what is wrong, in Indonesian. */
function gatewayFailure(error: unknown, gateway: Gateway): never {
  if (!(error instanceof WahaError)) throw error;
  throw new HttpError(502, wahaProblem(error, gateway.base_url));
}

/** The phone number ('628…') of WAHA's `me.id` ('628…@c.us'), or null. */
export const phoneOf = (me: WahaSession['me']): string | null => numberOfChat(me?.id);

const statusOf = (status: unknown): DeviceRow['status'] =>
  (SESSION_STATUSES as readonly unknown[]).includes(status)
    ? (status as DeviceRow['status'])
    : 'FAILED';

function deviceOf(row: DeviceRow, sent: Map<string, number>): Device {
  return {
    session: row.session,
    phone: row.phone,
    push_name: row.push_name,
    status: row.status,
    paused_until: row.paused_until,
    pause_reason: row.pause_reason,
    error_code: row.error_code,
    sent_today: sent.get(row.session) ?? 0,
  };
}

/**
 * The devices, their statuses read afresh from WAHA when it answers (`live`); when it does not,
 * as last heard, with `message` saying why.
 */
export async function listDevices(database: DbHandle, box: SecretBox): Promise<DeviceList> {
  const { db } = database;
  const gateway = await readGateway(db, box);
  const connection = gatewayConnectionOf(gateway);
  let rows = await db.selectFrom('gateway_devices').selectAll().orderBy('created_at').execute();
  let message: string | null = null;
  if (!connection) {
    message =
      rows.length > 0 ? 'Gateway belum diatur: status perangkat mungkin tidak terbaru' : null;
  } else if (rows.length > 0) {
    // The time before the reads: what they answer was so at least from then.
    const at = now();
    const heard = await Promise.all(
      rows.map((row) =>
        readSession(connection, row.session).then(
          (session) => ({ row, session, error: null }),
          (error: unknown) => ({ row, session: null, error }),
        ),
      ),
    );
    const failed = heard.find(
      ({ error }) => error && !(error instanceof WahaError && error.status === 404),
    );
    if (failed) {
      if (!(failed.error instanceof WahaError)) throw failed.error;
      message = `Status perangkat mungkin tidak terbaru: ${wahaProblem(failed.error, gateway.base_url)}`;
    }
    for (const { row, session, error } of heard) {
      // WAHA no longer knows the session (deleted there, or WAHA's storage lost): stopped.
      const gone = error instanceof WahaError && error.status === 404;
      if (session) await heardStatus(db, row.session, { ...session, at });
      else if (gone) await heardStatus(db, row.session, { status: 'STOPPED', at });
    }
    rows = await db.selectFrom('gateway_devices').selectAll().orderBy('created_at').execute();
  }
  const sent = await takenToday(
    db,
    rows.map((row) => row.session),
  );
  return {
    items: rows.map((row) => deviceOf(row, sent)),
    daily_limit: gateway.daily_limit_per_device,
    live: connection !== null && message === null,
    message,
  };
}

/** Indonesian: why a device in this status cannot send (Sebar's pause reason), or null. */
export function pauseReasonOf(status: DeviceRow['status'], loggedOut = false): string | null {
  if (loggedOut) return 'Perangkat dikeluarkan dari WhatsApp: pindai QR lagi untuk menyambung';
  if (status === 'FAILED')
    return 'Sesi WhatsApp gagal (perangkat terputus): tekan Jalankan, lalu pindai QR baru';
  if (status === 'STOPPED') return 'Sesi WhatsApp berhenti: jalankan lagi untuk mengirim';
  return null;
}

/** What was heard of a session, and when it was so (`at`, ISO): an event's time or a read's. */
export interface HeardSession {
  status: unknown;
  me?: WahaSession['me'];
  at: string;
  loggedOut?: boolean;
}

/**
 * Records what was heard of a session: its status, and its number and name once WORKING. A
 * device that fails or stops is paused with the reason (until the admin resumes it); turning
 * WORKING again lifts a pause that a status set (not a 463/475 hold, which has its own end).
 * What was so before the device's status was last known changes nothing (decision 225).
 */
export async function heardStatus(db: Db, session: string, heard: HeardSession): Promise<void> {
  const next = statusOf(heard.status);
  const row = await db
    .selectFrom('gateway_devices')
    .selectAll()
    .where('session', '=', session)
    .executeTakeFirst();
  if (!row) return;
  if (row.status_at !== null && Date.parse(heard.at) < Date.parse(row.status_at)) return;
  const reason = pauseReasonOf(next, heard.loggedOut);
  const statusPause = row.pause_reason !== null && row.error_code === null;
  const changes: Partial<DeviceRow> = { status_at: heard.at };
  if (row.status !== next) changes.status = next;
  if (next === 'WORKING') {
    const phone = phoneOf(heard.me);
    if (phone && phone !== row.phone) changes.phone = phone;
    const pushName = heard.me?.pushName ?? null;
    if (pushName && pushName !== row.push_name) changes.push_name = pushName;
    if (statusPause) Object.assign(changes, { pause_reason: null, paused_until: null });
  } else if (reason && (row.pause_reason === null || statusPause) && row.pause_reason !== reason) {
    Object.assign(changes, { pause_reason: reason, paused_until: null, error_code: null });
  }
  await db
    .updateTable('gateway_devices')
    .set({ ...changes, updated_at: now() })
    .where('session', '=', session)
    .execute();
}

async function deviceRow(db: Db, session: string): Promise<DeviceRow> {
  const row = await db
    .selectFrom('gateway_devices')
    .selectAll()
    .where('session', '=', session)
    .executeTakeFirst();
  if (!row) throw notFound('Perangkat');
  return row;
}

async function answerOf(db: Db, session: string): Promise<Device> {
  const row = await deviceRow(db, session);
  return deviceOf(row, await takenToday(db, [session]));
}

/** Adds a device: creates (and starts) its WAHA session, its webhook pointing at `webhookUrl`. */
export async function addDevice(
  database: DbHandle,
  box: SecretBox,
  session: string,
  webhookUrl: string,
  actorId: string,
): Promise<Device> {
  const { db } = database;
  const gateway = await gatewayOf(db, box);
  const existing = await db
    .selectFrom('gateway_devices')
    .select('session')
    .where('session', '=', session)
    .executeTakeFirst();
  if (existing) throw conflict(`Perangkat dengan sesi ${session} sudah ada`);
  let created: WahaSession;
  const createdAt = now();
  try {
    created = await createSession(gateway.connection, {
      name: session,
      webhookUrl,
      hmacKey: gateway.webhook_secret!,
    });
  } catch (error) {
    if (error instanceof WahaError && error.status === 422) {
      throw conflict(`Sesi ${session} sudah ada di WAHA: pakai nama lain atau hapus dulu di WAHA`);
    }
    gatewayFailure(error, gateway);
  }
  const at = now();
  await db
    .insertInto('gateway_devices')
    .values({
      session,
      phone: phoneOf(created?.me),
      push_name: created?.me?.pushName ?? null,
      status: statusOf(created?.status ?? 'STARTING'),
      status_at: createdAt,
      paused_until: null,
      pause_reason: null,
      error_code: null,
      next_send_at: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('session').doNothing())
    .execute();
  await recordAudit(db, {
    actorId,
    action: 'gateway.device.add',
    targetType: 'gateway_device',
    targetId: session,
    after: { session, webhook_url: webhookUrl },
  });
  return answerOf(db, session);
}

/** The pairing QR (PNG) while the session waits for a scan; 409 in any other status. */
export async function deviceQr(database: DbHandle, box: SecretBox, session: string) {
  const { db } = database;
  await deviceRow(db, session);
  const gateway = await gatewayOf(db, box);
  let status: unknown;
  try {
    const at = now();
    const heard = await readSession(gateway.connection, session);
    status = heard.status;
    await heardStatus(db, session, { ...heard, at });
  } catch (error) {
    gatewayFailure(error, gateway);
  }
  if (status !== 'SCAN_QR_CODE') throw conflict(qrRefusal(statusOf(status)));
  try {
    return await pairingQr(gateway.connection, session);
  } catch (error) {
    // The QR was scanned (or expired) between the two calls.
    if (error instanceof WahaError && error.status !== null && error.status < 500) {
      throw conflict('QR tidak tersedia lagi: muat ulang daftar perangkat');
    }
    gatewayFailure(error, gateway);
  }
}

function qrRefusal(status: DeviceRow['status']): string {
  switch (status) {
    case 'WORKING':
      return 'Perangkat sudah terhubung: tidak perlu memindai QR';
    case 'STARTING':
      return 'Sesi masih dimulai: QR muncul sebentar lagi';
    case 'STOPPED':
      return 'Sesi berhenti: jalankan dulu untuk menampilkan QR';
    default:
      return 'Sesi gagal: jalankan lagi untuk menampilkan QR';
  }
}

export type DeviceAction = 'logout' | 'start';

/** Logs the device out of WhatsApp, or starts its stopped session, and records it. */
export async function deviceAction(
  database: DbHandle,
  box: SecretBox,
  session: string,
  action: DeviceAction,
  actor: { id: string; webhookUrl: string },
): Promise<Device> {
  const { db } = database;
  const before = await deviceRow(db, session);
  const gateway = await gatewayOf(db, box);
  try {
    await sessionAction(gateway.connection, session, action);
  } catch (error) {
    // A session WAHA no longer knows is created again on start (its webhook, its key).
    if (action === 'start' && error instanceof WahaError && error.status === 404) {
      await recreate(gateway, session, actor.webhookUrl);
    } else {
      gatewayFailure(error, gateway);
    }
  }
  if (action === 'logout') {
    await db
      .updateTable('gateway_devices')
      .set({ phone: null, push_name: null, updated_at: now() })
      .where('session', '=', session)
      .execute();
  }
  try {
    const at = now();
    const heard = await readSession(gateway.connection, session);
    await heardStatus(db, session, { ...heard, at, loggedOut: action === 'logout' });
  } catch {
    // the webhook tells the status soon
  }
  await recordAudit(db, {
    actorId: actor.id,
    action: `gateway.device.${action}`,
    targetType: 'gateway_device',
    targetId: session,
    before: deviceOf(before, new Map()),
  });
  return answerOf(db, session);
}

async function recreate(
  gateway: Gateway & { connection: WahaConnection },
  session: string,
  webhookUrl: string,
) {
  try {
    await createSession(gateway.connection, {
      name: session,
      webhookUrl,
      hmacKey: gateway.webhook_secret!,
    });
  } catch (error) {
    gatewayFailure(error, gateway);
  }
}

/** A change of the key WAHA signs the devices' events with (the gateway's webhook secret). */
export interface WebhookRekey {
  connection: WahaConnection;
  from: string;
  to: string;
}

/**
 * Gives every device's session the webhook signed with the new key, one after another, so its
 * events keep being taken. A session WAHA no longer has is skipped: a start creates it with the
 * key of the time. On a failure the sessions already moved get the old key back and the change
 * is refused (502, the reason in Indonesian).
 */
export async function rekeyDevices(db: Db, rekey: WebhookRekey, webhookUrl: string) {
  const { connection, from, to } = rekey;
  const devices = await db
    .selectFrom('gateway_devices')
    .select('session')
    .orderBy('session')
    .execute();
  const moved: string[] = [];
  const give = (name: string, hmacKey: string) =>
    updateSession(connection, { name, webhookUrl, hmacKey }).catch((error: unknown) => {
      if (error instanceof WahaError && error.status === 404) return null;
      throw error;
    });
  for (const { session } of devices) {
    try {
      await give(session, to);
      moved.push(session);
    } catch (error) {
      for (const done of moved) await give(done, from).catch(() => null);
      if (!(error instanceof WahaError)) throw error;
      throw new HttpError(
        502,
        `Webhook perangkat ${session} tidak dapat diperbarui: ` +
          `${wahaProblem(error, connection.base_url)}. Pengaturan tidak disimpan`,
      );
    }
  }
}

/**
 * The gateway's last device is not removed while numbers of its blasts are still to be sent: they
 * would wait with no device to send them (409; decision 216 for the settings).
 */
async function refuseLastDevice(db: Db) {
  const others = await db
    .selectFrom('gateway_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  if (Number(others?.n ?? 0) > 1) return;
  const unsent = await unsentNumbers(db, 'gateway');
  if (unsent > 0) throw new HttpError(409, lastDeviceMessage(unsent));
}

/** Removes the device: its WAHA session is deleted (already gone there is fine), then its row. */
export async function removeDevice(
  database: DbHandle,
  box: SecretBox,
  session: string,
  actorId: string,
): Promise<void> {
  const { db } = database;
  const before = await deviceRow(db, session);
  await refuseLastDevice(db);
  const gateway = await readGateway(db, box);
  const connection = gatewayConnectionOf(gateway);
  if (connection) {
    try {
      await deleteSession(connection, session);
    } catch (error) {
      if (!(error instanceof WahaError && error.status === 404)) gatewayFailure(error, gateway);
    }
  }
  await db.deleteFrom('gateway_devices').where('session', '=', session).execute();
  await recordAudit(db, {
    actorId,
    action: 'gateway.device.remove',
    targetType: 'gateway_device',
    targetId: session,
    before: deviceOf(before, new Map()),
  });
}

/** Lifts Sebar's pause of the device (463/475 hold, a failure); WAHA's status stays as it is. */
export async function resumeDevice(
  database: DbHandle,
  session: string,
  actorId: string,
): Promise<Device> {
  const { db } = database;
  const before = await deviceRow(db, session);
  await db
    .updateTable('gateway_devices')
    .set({ paused_until: null, pause_reason: null, error_code: null, updated_at: now() })
    .where('session', '=', session)
    .execute();
  await recordAudit(db, {
    actorId,
    action: 'gateway.device.resume',
    targetType: 'gateway_device',
    targetId: session,
    before: { pause_reason: before.pause_reason, paused_until: before.paused_until },
  });
  return answerOf(db, session);
}
