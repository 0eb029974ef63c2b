// Keeps signed webhook deliveries with a group commit: the deliveries that arrive in the same
// turn of the event loop, or while one insert is being written, go together in the next insert,
// so a burst of Meta's webhooks costs one transaction (one fsync) per batch instead of one per
// delivery. Each delivery is still answered only once it is on disk (decision 208). The workers
// take the kept events back in the order they became due, mark them applied, or put back those
// that wait for a send's answer.
import crypto from 'node:crypto';
import { isoAt, now, type Db, type DbHandle } from '#server/db/connection.ts';
import type { WebhookEventsTable } from '#server/db/schema.ts';
import { transact, type Tx } from '#server/db/transaction.ts';
import { groupBy } from '#common/collections.ts';

interface Waiting {
  raw: Buffer;
  kept: () => void;
  failed: (error: unknown) => void;
}

/** At most this many deliveries in one insert (PostgreSQL's 65,535 bound parameters, well within). */
const MAX_BATCH = 500;

export class WebhookIntake {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly database: DbHandle,
    private readonly source: WebhookEventsTable['source'],
  ) {}

  /** Resolves once the delivery is kept (a repeat of the same bytes is kept once). */
  keep(raw: Buffer): Promise<void> {
    return new Promise((kept, failed) => {
      this.waiting.push({ raw, kept, failed });
      if (this.writing) return;
      this.writing = true;
      // SQLite's insert runs to its end without giving the event loop a turn, so it waits for the
      // turn to end: the requests read in it join the batch.
      setImmediate(() => void this.write());
    });
  }

  private async write(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        await this.insert(batch.map((w) => w.raw));
        for (const w of batch) w.kept();
      } catch (error) {
        for (const w of batch) w.failed(error);
      }
    }
    this.writing = false;
  }

  private async insert(bodies: Buffer[]): Promise<void> {
    const at = now();
    const rows = new Map<string, { id: string; body_sha256: string; body: string }>();
    for (const raw of bodies) {
      const sha = crypto.createHash('sha256').update(raw).digest('hex');
      rows.set(sha, { id: crypto.randomUUID(), body_sha256: sha, body: raw.toString('utf8') });
    }
    await this.database.db
      .insertInto('webhook_events')
      .values(
        [...rows.values()].map((row) => ({
          ...row,
          source: this.source,
          received_at: at,
          due_at: at,
          processed_at: null,
        })),
      )
      .onConflict((oc) => oc.column('body_sha256').doNothing())
      .execute();
  }
}

/** Kept webhook events applied in one transaction at most. */
export const EVENT_BATCH = 200;

/** The kept events of `source` not applied yet and due, in the order they became due. */
const dueEvents = (db: Db, source: WebhookEventsTable['source']) =>
  db
    .selectFrom('webhook_events')
    .where('processed_at', 'is', null)
    .where('source', '=', source)
    .where('due_at', '<=', now())
    .orderBy('due_at');

/** Whether any event of `source` is due: read before a write transaction is opened for them. */
export async function anyDueEvents({ db }: DbHandle, source: WebhookEventsTable['source']) {
  return (await dueEvents(db, source).select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Up to `limit` due events of `source`, taken by this transaction (PostgreSQL: skipping locked ones). */
export async function pendingEvents(tx: Tx, source: WebhookEventsTable['source'], limit: number) {
  let pending = dueEvents(tx.db, source).select(['id', 'body', 'received_at']).limit(limit);
  if (tx.engine === 'postgres') pending = pending.forUpdate().skipLocked();
  return pending.execute();
}

/** A kept event taken to be applied. */
export type KeptEvent = Awaited<ReturnType<typeof pendingEvents>>[number];

/** An event whose application failed on its own: set aside, due again later. */
export interface SetAside {
  id: string;
  error: unknown;
}

/**
 * Applies the due events of `source` with `apply`, up to `limit` in one transaction, and answers
 * what each transaction answered. A batch that fails is applied again in halves, so that an event
 * no try can apply (a fault of Sebar's) is found alone, set aside and reported, and never holds
 * back the events behind it (decision 261). A failure with nothing taken (the database out of
 * reach) is thrown.
 */
export async function applyKept<R>(
  database: DbHandle,
  source: WebhookEventsTable['source'],
  limit: number,
  apply: (tx: Tx, events: KeptEvent[]) => Promise<R>,
): Promise<{ results: R[]; setAside: SetAside[] }> {
  const results: R[] = [];
  const setAside: SetAside[] = [];
  const attempt = async (size: number): Promise<void> => {
    let taken: KeptEvent[] = [];
    try {
      const applied = await transact(database, async (tx) => {
        taken = await pendingEvents(tx, source, size);
        return taken.length === 0 ? null : { result: await apply(tx, taken) };
      });
      if (applied) results.push(applied.result);
    } catch (error) {
      if (taken.length === 0) throw error;
      if (taken.length === 1) {
        await putAside(database, taken[0]!);
        setAside.push({ id: taken[0]!.id, error });
        return;
      }
      const half = Math.ceil(taken.length / 2);
      await attempt(half);
      await attempt(taken.length - half);
    }
  };
  if (await anyDueEvents(database, source)) await attempt(limit);
  return { results, setAside };
}

/** Makes an event due again after as long as it has waited (at least a second): each failure waits twice as long. */
async function putAside({ db }: DbHandle, event: KeptEvent) {
  const waited = Date.now() - Date.parse(event.received_at);
  await db
    .updateTable('webhook_events')
    .set({ due_at: isoAt(Date.now() + Math.max(1000, waited)) })
    .where('id', '=', event.id)
    .where('processed_at', 'is', null)
    .execute();
}

/** Marks the events applied. */
export async function markApplied(tx: Tx, events: readonly { id: string }[]) {
  if (events.length === 0) return;
  await tx.db
    .updateTable('webhook_events')
    .set({ processed_at: now() })
    .where(
      'id',
      'in',
      events.map((e) => e.id),
    )
    .execute();
}

/** How long an event naming no known message waits for its send's answer: then it is not Sebar's. */
const UNMATCHED_WAIT_MS = 60_000;

/**
 * Splits taken events into those applied now and those that wait for a send's answer (`waits`),
 * unless they have waited long enough.
 */
export function splitWaiting<T extends { received_at: string }>(
  events: T[],
  waits: (event: T) => boolean,
): { done: T[]; waiting: T[] } {
  const waitFrom = isoAt(Date.now() - UNMATCHED_WAIT_MS);
  const done: T[] = [];
  const waiting: T[] = [];
  for (const event of events)
    (event.received_at >= waitFrom && waits(event) ? waiting : done).push(event);
  return { done, waiting };
}

/**
 * When a waiting event is looked at again, counted from its arrival: soon (a send's answer is
 * usually recorded within a second), once more, then after its wait, when it is applied.
 */
const RECHECKS_MS = [1_000, 5_000, UNMATCHED_WAIT_MS + 1_000];

/**
 * Puts waiting events back, due at their next look, so that the events behind them are applied
 * meanwhile; each is looked at three times at most.
 */
export async function putBack(tx: Tx, events: readonly { id: string; received_at: string }[]) {
  const at = Date.now();
  const nextLook = (event: { received_at: string }) => {
    const received = Date.parse(event.received_at);
    return isoAt(received + (RECHECKS_MS.find((ms) => received + ms > at) ?? UNMATCHED_WAIT_MS));
  };
  for (const [due, rows] of groupBy(events, nextLook)) {
    await tx.db
      .updateTable('webhook_events')
      .set({ due_at: due })
      .where(
        'id',
        'in',
        rows.map((e) => e.id),
      )
      .execute();
  }
}
