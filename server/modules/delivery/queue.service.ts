// The delivery queue as the admin's 'Pengiriman' screen reads it: the engine's state, what waits
// and what is on its way, today's sends and failures, the rate and the daily recipient limit;
// and the admin's resume of a paused or stopped engine.
import {
  CLOUD_API_DEFAULTS,
  GATEWAY_DEFAULTS,
  type DeliveryMode,
  type DeliveryQueue,
} from '#common/delivery.ts';
import { sendingWindow } from '#common/sending-hours.ts';
import { jakartaDayRange } from '#common/dashboard.ts';
import { errorMeaning } from '#common/whatsapp-errors.ts';
import { WITHDRAWN_REASONS } from '#common/blast-rules.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import type { DeliveryEngineTable } from '#server/db/schema.ts';
import { forUpdate, transact } from '#server/db/transaction.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { deviceReady, takenToday } from './gateway-capacity.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** A failure with neither Meta's code nor Sebar's title (should not happen; counted all the same). */
const NO_REASON = 'Tanpa keterangan';

/**
 * The engine as the admin should read it: off in manual mode with nothing left to send (blasts made
 * in Cloud API mode are still sent after a switch to manual); running when there is no row yet or
 * a pause has reached its end (the engine goes on then, even before it rewrites its row). Its row
 * is the Cloud API's: in another mode with no Cloud API number left to send, its pause holds
 * nothing back and is not shown (`cloudUnsent`).
 */
function engineView(
  mode: DeliveryMode,
  row: DeliveryEngineTable | undefined,
  at: string,
  { unsent, cloudUnsent }: { unsent: number; cloudUnsent: boolean },
): DeliveryQueue['engine'] {
  const quiet = { reason: null, error_code: null, resume_at: null, warning: null };
  if (mode === 'manual' && unsent === 0) return { state: 'off', since: null, ...quiet };
  if (!row || (mode !== 'cloud_api' && !cloudUnsent))
    return { state: 'running', since: null, ...quiet };
  const warning = warningOf(row, at);
  if (row.state === 'paused' && row.resume_at !== null && row.resume_at <= at)
    return { state: 'running', since: row.resume_at, ...quiet, warning };
  const { state, reason, error_code, since, resume_at } = row;
  return { state, reason, error_code, since, resume_at, warning };
}

/** The last error Meta reported for the phone number, while it is less than a day old. */
function warningOf(row: DeliveryEngineTable, at: string): DeliveryQueue['engine']['warning'] {
  const { warning_code: code, warning_title: title, warning_at: when } = row;
  if (code === null || when === null || when <= new Date(Date.parse(at) - DAY_MS).toISOString())
    return null;
  return { code: Number(code), meaning: errorMeaning(Number(code)).meaning, title, at: when };
}

/** Today's failures by Meta's code (Sebar's own, without a code, by their title), most first. */
async function failuresBetween(db: Db, start: string, end: string) {
  const rows = await db
    .selectFrom('blast_numbers')
    .select((eb) => ['error_code', 'error_title', eb.fn.countAll<number>().as('n')])
    .where('failed_at', '>=', start)
    .where('failed_at', '<', end)
    // Numbers withdrawn unsent (a cancel, a reject, an opt-out) are no failures of delivery.
    .where((eb) =>
      eb.or([
        eb('error_code', 'is not', null),
        eb('error_title', 'not in', [...WITHDRAWN_REASONS]),
      ]),
    )
    .groupBy(['error_code', 'error_title'])
    .execute();
  const groups = new Map<string, DeliveryQueue['failures_today'][number]>();
  for (const row of rows) {
    const code = row.error_code === null ? null : Number(row.error_code);
    const meaning = code === null ? (row.error_title ?? NO_REASON) : errorMeaning(code).meaning;
    const key = code === null ? `title:${meaning}` : `code:${code}`;
    const group = groups.get(key) ?? { code, meaning, count: 0 };
    group.count += Number(row.n);
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.count - a.count || (a.code ?? Infinity) - (b.code ?? Infinity),
  );
}

const countOf = (row: { n: number | string } | undefined) => Number(row?.n ?? 0);

export async function readQueue(db: Db, at = new Date()): Promise<DeliveryQueue> {
  const { start, end } = jakartaDayRange(at);
  const stamp = at.toISOString();
  const lastMinute = new Date(at.getTime() - MINUTE_MS).toISOString();
  const lastDay = new Date(at.getTime() - DAY_MS).toISOString();
  const [settings, engine, states, sent, failures, claimed, recipients] = await Promise.all([
    db
      .selectFrom('delivery_settings')
      .select(['mode', 'messages_per_second', 'daily_recipient_limit'])
      .where('id', '=', 1)
      .executeTakeFirst(),
    db.selectFrom('delivery_engine').selectAll().where('id', '=', 1).executeTakeFirst(),
    // Through the (state, next_attempt_at) index.
    db
      .selectFrom('blast_numbers')
      .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
      .where('state', 'in', ['queued', 'sending'])
      .groupBy('state')
      .execute(),
    db
      .selectFrom('blast_numbers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sent_at', '>=', start)
      .where('sent_at', '<', end)
      // A number accepted and then reported failed is counted among the failures alone.
      .where('failed_at', 'is', null)
      .executeTakeFirst(),
    failuresBetween(db, start, end),
    db
      .selectFrom('blast_numbers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('claimed_at', '>', lastMinute)
      .executeTakeFirst(),
    db
      .selectFrom('delivery_recipients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('last_sent_at', '>', lastDay)
      .executeTakeFirst(),
  ]);
  const mode = settings?.mode ?? 'manual';
  const gateway = mode === 'gateway' ? await gatewayPacing(db, at) : undefined;
  const waiting = countOf(states.find((s) => s.state === 'queued'));
  const sending = countOf(states.find((s) => s.state === 'sending'));
  return {
    mode,
    engine: engineView(mode, engine, stamp, {
      unsent: waiting + sending,
      cloudUnsent:
        mode !== 'cloud_api' && waiting + sending > 0 && (await unsentNumbers(db, 'cloud_api')) > 0,
    }),
    waiting,
    sending,
    sent_today: countOf(sent),
    failed_today: failures.reduce((sum, f) => sum + f.count, 0),
    failures_today: failures,
    rate: {
      limit: settings?.messages_per_second ?? CLOUD_API_DEFAULTS.messages_per_second,
      last_minute: Math.round((countOf(claimed) / 60) * 100) / 100,
    },
    daily: { limit: settings?.daily_recipient_limit ?? null, used: countOf(recipients) },
    ...(gateway ? { gateway } : {}),
  };
}

/** The gateway's pacing now: its devices' gaps, today's takes against their limits, its hours. */
async function gatewayPacing(db: Db, at: Date): Promise<NonNullable<DeliveryQueue['gateway']>> {
  const [settings, devices] = await Promise.all([
    db.selectFrom('gateway_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('gateway_devices').selectAll().execute(),
  ]);
  // The ready devices' takes against their limits: a held or dropped device takes no more.
  const ready = devices.filter((device) => deviceReady(device, at.getTime()));
  const taken = await takenToday(
    db,
    ready.map((device) => device.session),
    at.getTime(),
  );
  const pacing = { ...GATEWAY_DEFAULTS, ...settings };
  const window = sendingWindow(pacing.sending_hours, at.getTime());
  return {
    devices: ready.length,
    min_delay_seconds: pacing.min_delay_seconds,
    max_delay_seconds: pacing.max_delay_seconds,
    sent_today: [...taken.values()].reduce((sum, n) => sum + n, 0),
    daily_limit: pacing.daily_limit_per_device * ready.length,
    sending_hours: pacing.sending_hours,
    open: window.open,
    opens_at: window.open ? null : new Date(window.opensAt).toISOString(),
  };
}

/**
 * 'Lanjutkan Pengiriman': a paused or stopped engine runs again from now, its reason cleared, and
 * the admin's act is audited. An engine already running (or never paused: no row) is left as it
 * is, so a second click records nothing.
 */
export async function resumeEngine(database: DbHandle, actorId: string): Promise<DeliveryQueue> {
  await transact(database, async (tx) => {
    const query = tx.db.selectFrom('delivery_engine').selectAll().where('id', '=', 1);
    const before = await forUpdate(tx, query).executeTakeFirst();
    if (!before || before.state === 'running') return;
    const after = { state: 'running' as const, reason: null, error_code: null, resume_at: null };
    await tx.db
      .updateTable('delivery_engine')
      .set({ ...after, since: now() })
      .where('id', '=', 1)
      .execute();
    await recordAudit(tx.db, {
      actorId,
      action: 'delivery.resume',
      targetType: 'delivery_engine',
      targetId: '1',
      before: {
        state: before.state,
        reason: before.reason,
        error_code: before.error_code,
        resume_at: before.resume_at,
      },
      after,
    });
  });
  return readQueue(database.db);
}

/** How many numbers of the channel's blasts are still to be sent (queued or sending). */
export async function unsentNumbers(db: Db, mode: 'cloud_api' | 'gateway'): Promise<number> {
  const row = await db
    .selectFrom('blast_numbers as n')
    .innerJoin('blasts as b', 'b.id', 'n.blast_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('n.state', 'in', ['queued', 'sending'])
    .where('b.delivery_mode', '=', mode)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
