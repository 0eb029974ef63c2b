// Applies the WhatsApp gateway's (WAHA's) kept webhook events, as applyEvents (cloud-api-events.ts) does
// Meta's: session.status moves its device, message.ack moves its number forward only (the same
// applyStatuses), and incoming messages are read for the opt-out list. The events are marked
// applied in the same transaction.
import type { ReportedStatus } from '#common/delivery-states.ts';
import { optOutKeyword } from '#common/opt-outs.ts';
import { now, reportedAt, type DbHandle } from '#server/db/connection.ts';
import type { Tx } from '#server/db/transaction.ts';
import { recordOptOuts } from '#server/modules/opt-outs/opt-outs.service.ts';
import { heardStatus } from './devices.service.ts';
import { knownLids, lookUpLids, type LidLookup } from './lids.ts';
import type { SecretBox } from './secret-box.ts';
import { applyStatuses, type CallbackKey, type ReportedMessageStatus } from './send-results.ts';
import { numberOfChat, type WahaSession } from './waha.ts';
import {
  applyKept,
  EVENT_BATCH,
  markApplied,
  putBack,
  splitWaiting,
  type KeptEvent,
  type SetAside,
} from './webhook-intake.ts';

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

function parsed(body: string): WahaEvent | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as WahaEvent) : null;
  } catch {
    return null;
  }
}

const atOf = (event: WahaEvent) => reportedAt(Number(event.timestamp), now());

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
    title: status === 'failed' ? 'WhatsApp melaporkan pesan gagal terkirim' : null,
  };
}

/**
 * A message someone wrote to one of the devices: its sender and its text. WhatsApp may name the
 * sender by a hidden id ('…@lid') instead of their number: then `from` is null unless the event
 * also carries the number (NOWEB's `_data.key.remoteJidAlt`), and WAHA is asked for it.
 */
export interface IncomingMessage {
  session: string;
  from: string | null;
  lid: string | null;
  text: string;
}

/**
 * The incoming messages a `message` event carries (for the opt-out list: STOP, BERHENTI, UNSUB).
 * The device's own messages and those from groups, broadcasts or channels are not incoming.
 */
export function incomingMessagesOf(body: unknown): IncomingMessage[] {
  const event = body as WahaEvent | null;
  if (event?.event !== 'message') return [];
  const payload = event.payload as {
    from?: unknown;
    fromMe?: unknown;
    body?: unknown;
    _data?: { key?: { remoteJidAlt?: unknown } };
  } | null;
  if (!payload || payload.fromMe === true || typeof payload.body !== 'string') return [];
  const lid = /^\d{1,20}@lid$/.test(String(payload.from)) ? String(payload.from) : null;
  const from = numberOfChat(lid ? payload._data?.key?.remoteJidAlt : payload.from);
  if (!from && !lid) return [];
  return [
    { session: String(event.session ?? ''), from, lid: from ? null : lid, text: payload.body },
  ];
}

/**
 * Applies the kept gateway events not applied yet, in the order they became due, `limit` at a
 * time; answers how many it took and the events set aside (applyKept). An ack naming no known
 * message is put back to wait a little for its send's answer (as Meta's statuses are), then is
 * kept as applied (not Sebar's); so is a keyword message from a hidden id, while WAHA is asked for
 * its number.
 */
export async function applyGatewayEvents(
  database: DbHandle,
  secrets: SecretBox,
  limit = EVENT_BATCH,
): Promise<{ taken: number; setAside: SetAside[] }> {
  const { results, setAside } = await applyKept(database, 'waha', limit, applyTaken);
  await lookUpLids(
    database,
    secrets,
    results.flatMap((r) => r.lookups),
  );
  return { taken: results.reduce((sum, r) => sum + r.taken, setAside.length), setAside };
}

async function applyTaken(tx: Tx, rows: KeptEvent[]) {
  const events = rows.map((row) => {
    const event = parsed(row.body);
    // A STOP, BERHENTI or UNSUB written to a device puts its sender on the opt-out list.
    const keywords = incomingMessagesOf(event).filter((m) => optOutKeyword(m.text) !== null);
    return { ...row, event, keywords, ack: event ? ackStatusOf(event) : null };
  });
  // Session statuses in the order WAHA made them (it posts events concurrently).
  const statuses = events
    .filter((e) => e.event?.event === 'session.status')
    .sort((a, b) => Number(a.event!.timestamp ?? 0) - Number(b.event!.timestamp ?? 0));
  for (const { event } of statuses) {
    const payload = event!.payload as { name?: unknown; status?: unknown } | null;
    const session = String(payload?.name ?? event!.session ?? '');
    if (session) {
      await heardStatus(tx.db, session, {
        status: payload?.status,
        me: event!.me ?? null,
        at: atOf(event!),
      });
    }
  }

  await adoptLostSends(tx, events);
  const { unknown } = await applyStatuses(
    tx,
    events.flatMap((e) => (e.ack ? [e.ack] : [])),
    null,
  );
  const lids = await knownLids(
    tx.db,
    events.flatMap((e) => e.keywords.flatMap((m) => (m.lid ? [m.lid] : []))),
  );
  const unasked = (e: (typeof events)[number]): LidLookup[] =>
    e.keywords.flatMap(({ session, lid }) => (lid && !lids.has(lid) ? [{ session, lid }] : []));
  const { done, waiting } = splitWaiting(
    events,
    (e) => (e.ack !== null && unknown.has(e.ack.id)) || unasked(e).length > 0,
  );
  await recordOptOuts(
    tx,
    done.flatMap((e) =>
      e.keywords.flatMap((m) => {
        const from = m.from ?? lids.get(m.lid ?? '') ?? null;
        return from ? [{ from, texts: [m.text] }] : [];
      }),
    ),
    'gateway',
  );
  await markApplied(tx, done);
  await putBack(tx, waiting);
  return { taken: events.length, lookups: waiting.flatMap(unasked) };
}

/** The person a sent message's serialized id names (`true_628…@c.us_3EB0…`): '628…', or null. */
export function sentChatOf(id: string): string | null {
  return /^true_(\d{6,20})@(c\.us|s\.whatsapp\.net)_/.exec(id)?.[1] ?? null;
}

/**
 * Acks of a send whose answer never came (the worker died or timed out waiting while WAHA sent
 * it): such an ack names a message Sebar does not know, sent by its device to a number that
 * device still has sending with no message id. The ack is that number's (the oldest such claim
 * of the number on the device): it takes the number (`callback`), so it is not sent again.
 */
async function adoptLostSends(
  tx: Tx,
  events: { event: WahaEvent | null; ack: ReportedMessageStatus | null }[],
): Promise<void> {
  const acks = events.flatMap(({ event, ack }) => {
    const chat = ack ? sentChatOf(ack.id) : null;
    const session = typeof event?.session === 'string' ? event.session : null;
    return ack && chat && session ? [{ ack, chat, session }] : [];
  });
  if (acks.length === 0) return;
  const known = new Set(
    (
      await tx.db
        .selectFrom('blast_numbers')
        .select('provider_message_id')
        .where(
          'provider_message_id',
          'in',
          acks.map((a) => a.ack.id),
        )
        .execute()
    ).map((row) => row.provider_message_id),
  );
  const lost = acks.filter((a) => !known.has(a.ack.id));
  if (lost.length === 0) return;
  const sending = await tx.db
    .selectFrom('blast_numbers as n')
    .innerJoin('blasts as b', 'b.id', 'n.blast_id')
    .select(['n.blast_id', 'n.idx', 'n.number', 'n.device'])
    .where('b.delivery_mode', '=', 'gateway')
    .where('n.state', '=', 'sending')
    .where('n.provider_message_id', 'is', null)
    .where(
      'n.device',
      'in',
      lost.map((a) => a.session),
    )
    .orderBy('n.claimed_at')
    .execute();
  const taken = new Map<string, CallbackKey>();
  for (const { ack, chat, session } of lost) {
    let where = taken.get(ack.id);
    if (!where) {
      const row = sending.find((r) => r.device === session && r.number.replace(/\D/g, '') === chat);
      if (!row) continue;
      sending.splice(sending.indexOf(row), 1);
      where = { blastId: row.blast_id, idx: row.idx, attempt: null };
      taken.set(ack.id, where);
    }
    ack.callback = where;
  }
}
