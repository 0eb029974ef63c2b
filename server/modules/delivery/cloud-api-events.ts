// Applies Meta's kept webhook events (the Cloud API's counterpart of gateway-events.ts): each
// message status moves its number forward only (applyStatuses, send-results.ts), keyword messages
// put their senders on the opt-out list, and template status changes reach the templates, all in
// the transaction that marks the events applied.
import type { ReportedStatus } from '#common/delivery-states.ts';
import { errorCodeOf } from '#common/whatsapp-errors.ts';
import { now, reportedAt, type DbHandle } from '#server/db/connection.ts';
import type { Tx } from '#server/db/transaction.ts';
import { recordIncomingOptOuts } from '#server/modules/opt-outs/opt-outs.service.ts';
import {
  applyStatuses,
  haltFor,
  noteAccountError,
  type EngineHalt,
  parseCallbackKey,
  type ReportedMessageStatus,
} from './send-results.ts';
import type { Retrying } from './engine-options.ts';
import { applyTemplateStatuses } from './templates.service.ts';
import {
  applyKept,
  EVENT_BATCH,
  markApplied,
  putBack,
  splitWaiting,
  type KeptEvent,
  type SetAside,
} from './webhook-intake.ts';

/** The `value` of each change a webhook body carries. */
function changeValues(body: unknown): Record<string, unknown>[] {
  const values: Record<string, unknown>[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown })?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const value = (change as { value?: unknown })?.value;
      if (value && typeof value === 'object') values.push(value as Record<string, unknown>);
    }
  }
  return values;
}

/** The message statuses a webhook body carries (anything else in it is ignored). */
export function statusesOf(body: unknown): ReportedMessageStatus[] {
  return changeValues(body).flatMap((value) =>
    (Array.isArray(value.statuses) ? value.statuses : []).flatMap((status) => {
      const parsed = statusOf(status);
      return parsed ? [parsed] : [];
    }),
  );
}

/** An error Meta reports for the business phone number rather than for one message. */
export interface AccountError {
  code: number;
  title: string | null;
}

/**
 * The errors a webhook body reports for the business phone number `phoneNumberId` rather than
 * for one message (`value.errors`: a problem of the system, the app or the account).
 */
export function accountErrorsOf(body: unknown, phoneNumberId: string): AccountError[] {
  return changeValues(body).flatMap((value) => {
    const metadata = value.metadata as { phone_number_id?: unknown } | undefined;
    if (metadata?.phone_number_id !== phoneNumberId || !Array.isArray(value.errors)) return [];
    return value.errors.flatMap((raw) => {
      const { code, title } = errorOf(raw);
      return code === null ? [] : [{ code, title }];
    });
  });
}

/** A Meta error object's code and title (its message when it has none), as Sebar keeps them. */
function errorOf(raw: unknown): { code: number | null; title: string | null } {
  const error = raw as { code?: unknown; title?: unknown; message?: unknown } | null | undefined;
  const title = error?.title ?? error?.message;
  return {
    code: errorCodeOf(error?.code),
    title: typeof title === 'string' ? title.slice(0, 500) : null,
  };
}

const REPORTED = new Set(['sent', 'delivered', 'read', 'failed']);

function statusOf(raw: unknown): ReportedMessageStatus | null {
  const status = raw as {
    id?: unknown;
    status?: unknown;
    timestamp?: unknown;
    biz_opaque_callback_data?: unknown;
    errors?: unknown[];
  };
  if (typeof status?.id !== 'string' || !REPORTED.has(String(status.status))) return null;
  return {
    id: status.id,
    status: status.status as ReportedStatus,
    at: reportedAt(Number(status.timestamp) * 1000, now()),
    callback: parseCallbackKey(status.biz_opaque_callback_data),
    ...errorOf(Array.isArray(status.errors) ? status.errors[0] : undefined),
  };
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/** The errors Meta reports in `bodies` for Sebar's phone number. */
async function accountErrors(tx: Tx, bodies: unknown[]): Promise<AccountError[]> {
  const reporting = bodies.filter((body) =>
    changeValues(body).some((value) => Array.isArray(value.errors)),
  );
  if (reporting.length === 0) return [];
  const settings = await tx.db
    .selectFrom('delivery_settings')
    .select('phone_number_id')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!settings) return [];
  return reporting.flatMap((body) => accountErrorsOf(body, settings.phone_number_id));
}

/**
 * Applies the kept webhook events not applied yet, in the order they became due, `limit` at a
 * time: each status moves its number forward only (a repeat or a late one changes at most a
 * missing timestamp), the blasts are settled, and the events are marked applied in the same
 * transaction; one that waits for its send's answer is put back. An error that halts the engine
 * when a send meets it (a restricted sender, a bad token, a locked account) halts it too, whether
 * a failed status or the account's errors report it. Answers how many events it took, the halt,
 * the account's errors (for the log) and the events set aside (applyKept).
 */
export async function applyEvents(
  database: DbHandle,
  retrying: Retrying,
  limit = EVENT_BATCH,
): Promise<{
  taken: number;
  halt: EngineHalt | null;
  accountErrors: AccountError[];
  setAside: SetAside[];
}> {
  const { results, setAside } = await applyKept(database, 'whatsapp', limit, (tx, rows) =>
    applyTaken(tx, rows, retrying),
  );
  return {
    taken: results.reduce((sum, r) => sum + r.taken, setAside.length),
    halt: results.findLast((r) => r.halt !== null)?.halt ?? null,
    accountErrors: results.flatMap((r) => r.accountErrors),
    setAside,
  };
}

async function applyTaken(tx: Tx, rows: KeptEvent[], retrying: Retrying) {
  const events = rows.map((event) => {
    const body = parsed(event.body);
    return { ...event, parsed: body, statuses: statusesOf(body) };
  });
  const { unknown, haltCodes } = await applyStatuses(
    tx,
    events.flatMap((e) => e.statuses),
    retrying,
  );
  // A status may come before the send's answer is recorded and without the key it was sent
  // with; its event waits a little for the answer, then is kept as applied (not Sebar's).
  const { done, waiting } = splitWaiting(events, (e) =>
    e.statuses.some((status) => unknown.has(status.id)),
  );
  const reported = await accountErrors(
    tx,
    done.map((e) => e.parsed),
  );
  const halt = await haltFor(tx, [...haltCodes, ...reported.map((e) => e.code)], retrying);
  await noteAccountError(tx, reported.at(-1));
  // Keyword messages in the events put their senders on the opt-out list, once per event.
  await recordIncomingOptOuts(tx, done);
  // Meta's template status webhooks come to the same URL: a paused template leaves the clients.
  await applyTemplateStatuses(tx, done);
  await markApplied(tx, done);
  await putBack(tx, waiting);
  return { taken: events.length, halt, accountErrors: reported };
}
