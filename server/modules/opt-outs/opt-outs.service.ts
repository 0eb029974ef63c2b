// The opt-out list: who said a keyword to the business (Meta's incoming messages, recorded in the
// transaction that applies their webhook), the admin's additions and removals, and the numbers a
// new blast must leave out before it is charged (decision 210). A number put on the list is also
// withdrawn from the blasts still queued to it (decision 243).
import {
  OPT_OUT_MESSAGES,
  optOutKeyword,
  type OptOut,
  type OptOutInput,
  type OptOutPage,
  type OptOutQuery,
} from '#common/opt-outs.ts';
import { isValidNumber, normalizeNumber } from '#common/phone.ts';
import { inJsonArray, now, type Db, type DbHandle } from '#server/db/connection.ts';
import { pageWindow } from '#server/db/pages.ts';
import type { OptOutsTable } from '#server/db/schema.ts';
import { transact, type Tx } from '#server/db/transaction.ts';
import { conflict, HttpError } from '#server/plugins/errors.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { withdrawQueuedTo } from '#server/modules/blasts/blast-settlement.service.ts';

/** A message a WhatsApp user sent to the business: its sender and the texts it carries. */
export interface IncomingMessage {
  id: string | null;
  /** The sender's WhatsApp id (their number, digits with the country code). */
  from: string;
  /** What the user wrote or tapped: the text, a button's text and payload, a reply's title. */
  texts: string[];
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const strings = (...values: unknown[]) =>
  values.filter((value): value is string => typeof value === 'string');

/** The texts of one message by its type (Meta's messages webhook reference). */
function textsOf(message: Record<string, unknown>): string[] {
  switch (message.type) {
    case 'text':
      return strings(record(message.text).body);
    // A quick-reply button of a template.
    case 'button': {
      const button = record(message.button);
      return strings(button.text, button.payload);
    }
    case 'interactive': {
      const interactive = record(message.interactive);
      const reply = record(interactive.button_reply ?? interactive.list_reply);
      return strings(reply.title, reply.id);
    }
    default:
      return [];
  }
}

/**
 * The incoming messages of a Cloud API webhook body, `entry[].changes[].value.messages[]`
 * (statuses and anything else in it are ignored; so is a message without a sender).
 */
export function incomingOf(body: unknown): IncomingMessage[] {
  const found: IncomingMessage[] = [];
  for (const entry of list(record(body).entry)) {
    for (const change of list(record(entry).changes)) {
      for (const raw of list(record(record(change).value).messages)) {
        const message = record(raw);
        if (typeof message.from !== 'string') continue;
        const id = typeof message.id === 'string' ? message.id : null;
        found.push({ id, from: message.from, texts: textsOf(message) });
      }
    }
  }
  return found;
}

/**
 * Sebar's form of a sender, or null when no blast could hold it: only an Indonesian number
 * (62…) that SPEC's rule takes, already normalised, can be on a blast.
 */
function senderNumber(waId: string): string | null {
  if (!/^62\d+$/.test(waId) || !isValidNumber(waId)) return null;
  return normalizeNumber(waId) === waId ? waId : null;
}

const MESSAGES_KEY = /"messages"\s*:/;
/** Control characters and lone surrogates: PostgreSQL refuses NUL, and neither is worth keeping. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/gu;

/** A message as the list keeps it: trimmed, printable, at most 100 characters. */
const keptText = (text: string) =>
  Array.from(text.replace(UNPRINTABLE, '').trim()).slice(0, 100).join('');

/** The incoming messages of a kept Cloud API webhook body. */
function cloudMessagesIn(body: string): IncomingMessage[] {
  // Status webhooks (most of them) have no `messages` key: not parsed a second time.
  if (!MESSAGES_KEY.test(body)) return [];
  try {
    return incomingOf(JSON.parse(body));
  } catch {
    return [];
  }
}

/**
 * Puts the senders of keyword messages on the list (one row a sender, with its first keyword
 * message), in the transaction that marks their webhook events applied, so each counts once; a
 * number already there stays as it was (its first record).
 */
export async function recordOptOuts(
  tx: Tx,
  messages: readonly Pick<IncomingMessage, 'from' | 'texts'>[],
  channel: 'cloud_api' | 'gateway',
): Promise<void> {
  const at = now();
  const rows = new Map<string, OptOutsTable>();
  for (const message of messages) {
    const number = senderNumber(message.from);
    const said = message.texts.find((text) => optOutKeyword(text) !== null);
    if (number === null || said === undefined || rows.has(number)) continue;
    rows.set(number, {
      number,
      source: 'whatsapp',
      keyword: keptText(said),
      channel,
      created_at: at,
      created_by: null,
    });
  }
  if (rows.size === 0) return;
  await tx.db
    .insertInto('opt_outs')
    .values([...rows.values()])
    .onConflict((oc) => oc.column('number').doNothing())
    .execute();
  await withdrawQueuedTo(tx, [...rows.keys()]);
}

/** The opt-outs the kept Cloud API webhook `events` carry (see `recordOptOuts`). */
export async function recordIncomingOptOuts(tx: Tx, events: { body: string }[]): Promise<void> {
  await recordOptOuts(
    tx,
    events.flatMap((event) => cloudMessagesIn(event.body)),
    'cloud_api',
  );
}

/** `numbers` without the ones on the list, in their order, and how many were left out. */
export async function withoutOptedOut(
  tx: Tx,
  numbers: string[],
): Promise<{ kept: string[]; optedOut: number }> {
  if (numbers.length === 0) return { kept: numbers, optedOut: 0 };
  const listed = await tx.db
    .selectFrom('opt_outs')
    .select('number')
    .where(inJsonArray(tx.engine, 'number', JSON.stringify(numbers)))
    .execute();
  if (listed.length === 0) return { kept: numbers, optedOut: 0 };
  const out = new Set(listed.map((row) => row.number));
  return { kept: numbers.filter((number) => !out.has(number)), optedOut: out.size };
}

function optOutsQuery(db: Db) {
  return db
    .selectFrom('opt_outs as o')
    .leftJoin('users as u', 'u.id', 'o.created_by')
    .selectAll('o')
    .select('u.username as created_by_username');
}

/**
 * What a search looks for in the stored numbers: its digits, a leading 0 read as 62 (the local
 * form); null when it has none (it finds nothing).
 */
function searchDigits(search: string): string | null {
  const digits = search.replace(/\D/g, '');
  if (digits === '') return null;
  return search.trimStart().startsWith('0') ? `62${digits.slice(1)}` : digits;
}

/** The list for the admin, newest first, a page at a time, optionally searched by number. */
export async function listOptOuts(db: Db, query: OptOutQuery): Promise<OptOutPage> {
  const { page, page_size } = query;
  const counts = await db
    .selectFrom('opt_outs')
    .select((eb) => ['source', eb.fn.countAll<number>().as('n')])
    .groupBy('source')
    .execute();
  const of = (source: string) => Number(counts.find((c) => c.source === source)?.n ?? 0);
  const summary = {
    total: of('whatsapp') + of('admin'),
    whatsapp: of('whatsapp'),
    admin: of('admin'),
  };
  if (!query.search) return { ...(await optOutsPage(db, query, summary.total)), summary };
  const digits = searchDigits(query.search);
  if (digits === null) return { items: [], total: 0, page, page_size, summary };
  const found = await db
    .selectFrom('opt_outs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('number', 'like', `%${digits}%`)
    .executeTakeFirstOrThrow();
  return { ...(await optOutsPage(db, query, Number(found.n), digits)), summary };
}

/** One page of the `total` numbers that hold `digits` (all of them without), newest first. */
async function optOutsPage(
  db: Db,
  { page, page_size }: OptOutQuery,
  total: number,
  digits?: string,
) {
  const window = pageWindow(page, page_size, total);
  const order = window.reverse ? 'asc' : 'desc';
  let rows = optOutsQuery(db)
    .orderBy('o.created_at', order)
    .orderBy('o.number', order)
    .limit(window.limit)
    .offset(window.offset);
  if (digits !== undefined) rows = rows.where('o.number', 'like', `%${digits}%`);
  const items = await rows.execute();
  if (window.reverse) items.reverse();
  return { items, total, page, page_size };
}

/** The admin puts a number on the list (audited); 409 when it is already there. */
export async function addOptOut(
  database: DbHandle,
  actorId: string,
  input: OptOutInput,
): Promise<OptOut> {
  const number = normalizeNumber(input.number);
  return transact(database, async (tx) => {
    const row: OptOutsTable = {
      number,
      source: 'admin',
      keyword: null,
      channel: null,
      created_at: now(),
      created_by: actorId,
    };
    const added = await tx.db
      .insertInto('opt_outs')
      .values(row)
      .onConflict((oc) => oc.column('number').doNothing())
      .executeTakeFirst();
    if (!added.numInsertedOrUpdatedRows) throw conflict(OPT_OUT_MESSAGES.alreadyListed);
    await withdrawQueuedTo(tx, [number]);
    await recordAudit(tx.db, {
      actorId,
      action: 'opt_out.add',
      targetType: 'opt_out',
      targetId: number,
      after: row,
    });
    return optOutsQuery(tx.db).where('o.number', '=', number).executeTakeFirstOrThrow();
  });
}

const notListed = () => new HttpError(404, OPT_OUT_MESSAGES.notListed);

/**
 * The admin takes a number off the list (audited): later blasts reach it again. The number may
 * be written as a blast takes it; 404 when it is not on the list.
 */
export async function removeOptOut(database: DbHandle, actorId: string, raw: string) {
  if (!isValidNumber(raw)) throw notListed();
  const number = normalizeNumber(raw);
  await transact(database, async (tx) => {
    const removed = await tx.db
      .deleteFrom('opt_outs')
      .where('number', '=', number)
      .returningAll()
      .executeTakeFirst();
    if (!removed) throw notListed();
    await recordAudit(tx.db, {
      actorId,
      action: 'opt_out.remove',
      targetType: 'opt_out',
      targetId: number,
      before: removed,
    });
  });
}
