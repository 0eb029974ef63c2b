// Keeps signed webhook deliveries with a group commit: the deliveries that arrive in the same
// turn of the event loop, or while one insert is being written, go together in the next insert,
// so a burst of Meta's webhooks costs one transaction (one fsync) per batch instead of one per
// delivery. Each delivery is still answered only once it is on disk (decision 208).
import crypto from 'node:crypto';
import { now, type DbHandle } from '#server/db/connection.ts';
import type { WebhookEventsTable } from '#server/db/schema.ts';

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
