// Applies Meta's kept webhook events (the Cloud API's counterpart of gateway-events.ts): each
// message status moves its number forward only (applyStatuses, send-results.ts), keyword messages
// put their senders on the opt-out list, and template status changes reach the templates, all in
// the transaction that marks the events applied.
import type { ReportedStatus } from '#common/delivery-states.ts';
import { now, reportedAt, type DbHandle } from '#server/db/connection.ts';
import { transact } from '#server/db/transaction.ts';
import { recordIncomingOptOuts } from '#server/modules/opt-outs/opt-outs.service.ts';
import { applyStatuses, parseCallbackKey, type ReportedMessageStatus } from './send-results.ts';
import type { Retrying } from './engine-options.ts';
import { applyTemplateStatuses } from './templates.service.ts';
import {
  anyDueEvents,
  EVENT_BATCH,
  markApplied,
  pendingEvents,
  putBack,
  splitWaiting,
} from './webhook-intake.ts';

/** The message statuses a webhook body carries (anything else in it is ignored). */
export function statusesOf(body: unknown): ReportedMessageStatus[] {
  const found: ReportedMessageStatus[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown })?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const statuses = (change as { value?: { statuses?: unknown } })?.value?.statuses;
      for (const status of Array.isArray(statuses) ? statuses : []) {
        const parsed = statusOf(status);
        if (parsed) found.push(parsed);
      }
    }
  }
  return found;
}

const REPORTED = new Set(['sent', 'delivered', 'read', 'failed']);

function statusOf(raw: unknown): ReportedMessageStatus | null {
  const status = raw as {
    id?: unknown;
    status?: unknown;
    timestamp?: unknown;
    biz_opaque_callback_data?: unknown;
    errors?: { code?: unknown; title?: unknown; message?: unknown }[];
  };
  if (typeof status?.id !== 'string' || !REPORTED.has(String(status.status))) return null;
  const error = Array.isArray(status.errors) ? status.errors[0] : undefined;
  const code = Number(error?.code);
  const title = error?.title ?? error?.message;
  return {
    id: status.id,
    status: status.status as ReportedStatus,
    at: reportedAt(Number(status.timestamp) * 1000, now()),
    callback: parseCallbackKey(status.biz_opaque_callback_data),
    code: Number.isInteger(code) ? code : null,
    title: typeof title === 'string' ? title.slice(0, 500) : null,
  };
}

function statusesIn(body: string): ReportedMessageStatus[] {
  try {
    return statusesOf(JSON.parse(body));
  } catch {
    return [];
  }
}

/**
 * Applies the kept webhook events not applied yet, in the order they became due, `limit` at a
 * time: each status moves its number forward only (a repeat or a late one changes at most a
 * missing timestamp), the blasts are settled, and the events are marked applied in the same
 * transaction; one that waits for its send's answer is put back. Answers how many events it took.
 */
export async function applyEvents(
  database: DbHandle,
  retrying: Retrying,
  limit = EVENT_BATCH,
): Promise<number> {
  if (!(await anyDueEvents(database, 'whatsapp'))) return 0;
  return transact(database, async (tx) => {
    const events = (await pendingEvents(tx, 'whatsapp', limit)).map((event) => ({
      ...event,
      statuses: statusesIn(event.body),
    }));
    if (events.length === 0) return 0;
    const unknown = await applyStatuses(
      tx,
      events.flatMap((e) => e.statuses),
      retrying,
    );
    // A status may come before the send's answer is recorded and without the key it was sent
    // with; its event waits a little for the answer, then is kept as applied (not Sebar's).
    const { done, waiting } = splitWaiting(events, (e) =>
      e.statuses.some((status) => unknown.has(status.id)),
    );
    // Keyword messages in the events put their senders on the opt-out list, once per event.
    await recordIncomingOptOuts(tx, done);
    // Meta's template status webhooks come to the same URL: a paused template leaves the clients.
    await applyTemplateStatuses(tx, done);
    await markApplied(tx, done);
    await putBack(tx, waiting);
    return events.length;
  });
}
