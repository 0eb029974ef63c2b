// Applies the WhatsApp gateway's (WAHA's) kept webhook events, as applyEvents (outbox.ts) does
// Meta's: session.status moves its device, message.ack moves its number forward only (the same
// applyStatuses), and incoming messages are read for the opt-out list. The events are marked
// applied in the same transaction.
import type { ReportedStatus } from '#common/delivery-states.ts';
import { now, type DbHandle } from '#server/db/connection.ts';
import { transact } from '#server/db/transaction.ts';
import { recordOptOuts } from '#server/modules/opt-outs/opt-outs.service.ts';
import { heardStatus } from './devices.service.ts';
import { applyStatuses, type ReportedMessageStatus } from './outbox.ts';
import type { WahaSession } from './waha.ts';

/** One of WAHA's webhook bodies: `{event, session, me, payload, timestamp}`. */
interface WahaEvent {
  event?: unknown;
  session?: unknown;
  me?: WahaSession['me'];
  payload?: unknown;
  timestamp?: unknown;
}

/** WAHA's acks as Sebar's delivery states: pending (0) says nothing new. */
const ACK_STATES: Record<number, ReportedStatus> = {
  [-1]: 'failed',
  1: 'sent',
  2: 'delivered',
  3: 'read',
  4: 'read',
};

/** How long an ack naming no known message waits for its send's answer to be recorded. */
const UNMATCHED_WAIT_MS = 60_000;

function parsed(body: string): WahaEvent | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as WahaEvent) : null;
  } catch {
    return null;
  }
}

const atOf = (event: WahaEvent) => {
  const ms = Number(event.timestamp);
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : now();
};

/** The message status a `message.ack` event reports, or null (pending, or not an ack). */
export function ackStatusOf(body: unknown): ReportedMessageStatus | null {
  const event = body as WahaEvent | null;
  if (event?.event !== 'message.ack') return null;
  const payload = event.payload as { id?: unknown; ack?: unknown; ackName?: unknown } | null;
  const id = typeof payload?.id === 'string' ? payload.id : null;
  const status = ACK_STATES[Number(payload?.ack)];
  if (!id || !status) return null;
  return {
    id,
    status,
    at: atOf(event),
    callback: null,
    code: null,
    title: status === 'failed' ? 'WhatsApp melaporkan pesan gagal terkirim (ack ERROR)' : null,
  };
}

/** A message someone wrote to one of the devices: its sender ('628…') and its text. */
export interface IncomingMessage {
  session: string;
  from: string;
  text: string;
}

/**
 * The incoming messages a `message` event carries (for the opt-out list: STOP, BERHENTI, UNSUB).
 * The device's own messages and those from groups, broadcasts or channels are not incoming.
 */
export function incomingMessagesOf(body: unknown): IncomingMessage[] {
  const event = body as WahaEvent | null;
  if (event?.event !== 'message') return [];
  const payload = event.payload as { from?: unknown; fromMe?: unknown; body?: unknown } | null;
  if (!payload || payload.fromMe === true || typeof payload.body !== 'string') return [];
  const from = /^(\d{8,15})@(c\.us|s\.whatsapp\.net)$/.exec(String(payload.from))?.[1];
  if (!from) return [];
  return [{ session: String(event.session ?? ''), from, text: payload.body }];
}

/**
 * Applies the kept gateway events not applied yet, oldest first, `limit` at a time; answers how
 * many it applied. An ack naming no known message waits a little for its send's answer (as
 * Meta's statuses do), then is kept as applied (not Sebar's).
 */
export async function applyGatewayEvents(database: DbHandle, limit = 200): Promise<number> {
  return transact(database, async (tx) => {
    let pending = tx.db
      .selectFrom('webhook_events')
      .select(['id', 'body', 'received_at'])
      .where('processed_at', 'is', null)
      .where('source', '=', 'waha')
      .orderBy('received_at')
      .limit(limit);
    if (tx.engine === 'postgres') pending = pending.forUpdate().skipLocked();
    const events = (await pending.execute()).map((row) => {
      const event = parsed(row.body);
      return { ...row, event, ack: event ? ackStatusOf(event) : null };
    });
    if (events.length === 0) return 0;

    // Session statuses in the order WAHA made them (it posts events concurrently).
    const statuses = events
      .filter((e) => e.event?.event === 'session.status')
      .sort((a, b) => Number(a.event!.timestamp ?? 0) - Number(b.event!.timestamp ?? 0));
    for (const { event } of statuses) {
      const payload = event!.payload as { name?: unknown; status?: unknown } | null;
      const session = String(payload?.name ?? event!.session ?? '');
      if (session) await heardStatus(tx.db, session, payload?.status, event!.me ?? null);
    }

    const unknown = await applyStatuses(
      tx,
      events.flatMap((e) => (e.ack ? [e.ack] : [])),
    );
    const waitFrom = new Date(Date.now() - UNMATCHED_WAIT_MS).toISOString();
    const done = events.filter((e) => e.received_at < waitFrom || !e.ack || !unknown.has(e.ack.id));
    // A STOP, BERHENTI or UNSUB written to a device puts its sender on the opt-out list.
    const incoming = done.flatMap((e) => incomingMessagesOf(e.event));
    await recordOptOuts(
      tx,
      incoming.map((message) => ({ from: message.from, texts: [message.text] })),
      'gateway',
    );
    if (done.length > 0) {
      await tx.db
        .updateTable('webhook_events')
        .set({ processed_at: now() })
        .where(
          'id',
          'in',
          done.map((e) => e.id),
        )
        .execute();
    }
    return done.length;
  });
}
