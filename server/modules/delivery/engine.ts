// The delivery engine: one per worker (in the server process, or alone with `npm run
// worker`) that applies Meta's statuses, claims due numbers at the shared pace, sends them and
// records what each send came to. Everything it knows is in the database (outbox.ts), so workers
// may die and restart at any moment and several may run on one PostgreSQL.
import type { FastifyBaseLogger } from 'fastify';
import { partValues } from '#common/template-text.ts';
import { errorMeaning, haltsEngine } from '#common/whatsapp-errors.ts';
import type { DbHandle } from '#server/db/connection.ts';
import type { FileStore } from '#server/modules/uploads/file-store.ts';
import {
  GRAPH_TIMEOUT_MS,
  GraphError,
  sendTemplate,
  uploadMedia,
  type CloudApiCredentials,
} from './cloud-api.ts';
import { credentialsOf, readDelivery } from './delivery.service.ts';
import { applyEvents } from './cloud-api-events.ts';
import { applyGatewayEvents } from './gateway-events.ts';
import { claimForDevices, holdDevice, type GatewayClaimed } from './gateway-outbox.ts';
import {
  gatewaySendMs,
  readGatewaySending,
  sendThroughGateway,
  type GatewaySending,
} from './gateway-sender.ts';
import {
  anyDue,
  claimDue,
  keepMediaId,
  keptMediaId,
  mayStillPost,
  numberKey,
  requeueUnanswered,
  stillOpen,
  blastImage,
  MissingImage,
  type Claimed,
} from './outbox.ts';
import { callbackKey, recordResults, type SendOutcome, type SendResult } from './send-results.ts';
import type { SecretBox } from './secret-box.ts';
import { ENGINE_DEFAULTS, type EngineOptions } from './engine-options.ts';
import { SendPace } from './send-pace.ts';

/**
 * One claim takes this much of the future's send slots, and the next comes when half is left: a
 * claim step (a few hundred milliseconds on a busy PostgreSQL) never leaves a slot unused.
 */
const CLAIM_WINDOW_MS = 600;
/** How often the record loop writes the sends' results while sends are on their way. */
const RECORD_EVERY_MS = 50;
/** Sends in flight at most, whatever the rate (a hanging API must not pile them up). */
const MAX_IN_FLIGHT = 2000;

interface EngineContext {
  database: DbHandle;
  secrets: SecretBox;
  files: FileStore;
  log: FastifyBaseLogger;
}

export class DeliveryEngine {
  private readonly inFlight = new Set<Promise<void>>();
  private results: SendResult[] = [];
  /** The numbers this worker claimed whose outcome is not recorded yet (`numberKey`). */
  private readonly inHand = new Set<string>();
  private readonly uploads = new Map<string, Promise<string>>();
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly wakes = new Set<() => void>();
  private lastSweep = 0;
  private readonly pace = new SendPace();
  /**
   * A halt this worker was answered (a restricted sender, a bad token): its claimed numbers not
   * posted yet wait instead of meeting it too. Cleared by a claim, which the engine makes only
   * while running.
   */
  private halted: number | null = null;

  constructor(
    private readonly context: EngineContext,
    private readonly options: EngineOptions = ENGINE_DEFAULTS,
  ) {}

  /**
   * Two loops: one claims and sends at the pace, the other records what the sends came to and
   * applies the webhooks, so neither waits for the other's round trips (decision 211).
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = [this.repeat(() => this.claimStep()), this.repeat(() => this.recordStep())];
  }

  /** Stops claiming, waits for the sends in flight and records them. */
  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.wakes) wake();
    await Promise.all(this.loops);
    await Promise.allSettled([...this.inFlight]);
    await this.flush();
  }

  /** Runs `step` until stopped, waiting what each round answers. */
  private async repeat(step: () => Promise<number>): Promise<void> {
    while (this.running) {
      let waitMs = this.options.idleMs;
      try {
        waitMs = await step();
      } catch (error) {
        this.context.log.error({ err: error }, 'delivery engine step failed');
      }
      if (waitMs > 0 && this.running) await this.sleep(waitMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakes.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakes.add(done);
    });
  }

  /**
   * How long a number may stay sending with no word before it goes back to the queue: the
   * setting, never less than the longest its send can take plus a margin; and its attempts.
   */
  private unansweredMs() {
    const least = (sendMs: number) => Math.max(this.options.unansweredMs, sendMs + 5000);
    return {
      cloudApiMs: least(GRAPH_TIMEOUT_MS),
      gatewayMs: least(gatewaySendMs(this.options.gatewaySecondMs)),
      maxAttempts: this.options.maxAttempts,
    };
  }

  /** Claims and sends what is due on both channels; answers how long to wait. */
  private async claimStep(): Promise<number> {
    const started = Date.now();
    const waits = await Promise.all([this.claimAndSend(), this.claimAndSendGateway()]);
    return Math.max(0, started + Math.min(...waits) - Date.now());
  }

  /**
   * Records the sends' results, applies the kept webhooks, and once a second sends back to the
   * queue the numbers nobody has word of. Answers how long to wait: at once while webhooks are
   * waiting, a little while sends are on their way, else the idle wait.
   */
  private async recordStep(): Promise<number> {
    const { database } = this.context;
    await this.flush();
    const meta = await applyEvents(database, this.options);
    // Every error Meta reports for the account is logged, whether or not it halts the engine.
    if (meta.accountErrors.length > 0) {
      this.context.log.warn({ errors: meta.accountErrors }, 'Meta reported account errors');
    }
    if (meta.halt) this.context.log.warn({ halt: meta.halt }, 'delivery engine halted');
    const gateway = await applyGatewayEvents(database, this.context.secrets);
    for (const { id, error } of [...meta.setAside, ...gateway.setAside]) {
      this.context.log.error({ err: error, event: id }, 'webhook event set aside: not applied');
    }
    const taken = meta.taken + gateway.taken;
    if (Date.now() - this.lastSweep > 1000) {
      this.lastSweep = Date.now();
      await requeueUnanswered(database, this.unansweredMs(), Date.now(), this.inHand);
    }
    if (taken > 0) return 0;
    return this.inFlight.size > 0 || this.results.length > 0
      ? RECORD_EVERY_MS
      : this.options.idleMs;
  }

  /** Claims the numbers whose slots have come and sends them; answers the wait to the next. */
  private async claimAndSend(): Promise<number> {
    const { database } = this.context;
    const delivery = await readDelivery(database.db, this.context.secrets);
    const credentials = credentialsOf(delivery);
    if (
      !credentials ||
      this.inFlight.size >= MAX_IN_FLIGHT ||
      !(await anyDue(database, 'cloud_api'))
    )
      return this.options.idleMs;
    const { claimed, waitMs } = await claimDue(database, {
      messagesPerSecond: credentials.messages_per_second,
      dailyRecipientLimit: credentials.daily_recipient_limit,
      recipientGapMs: this.options.recipientGapMs,
      claimWindowMs: CLAIM_WINDOW_MS,
    });
    if (claimed.length > 0) this.halted = null;
    for (const number of claimed) {
      this.track(
        number,
        this.pace
          .when(number.sendAt, credentials.messages_per_second)
          .then(() => this.send(credentials, number)),
      );
    }
    return Math.min(waitMs, this.options.idleMs);
  }

  /** Lets each gateway device whose gap has passed take a number and send it like a person. */
  private async claimAndSendGateway(): Promise<number> {
    const { database, secrets } = this.context;
    const gateway = await readGatewaySending(database.db, secrets, this.options.gatewaySecondMs);
    if (!gateway || !(await anyDue(database, 'gateway'))) return this.options.idleMs;
    const { claimed, waitMs } = await claimForDevices(database, gateway);
    for (const number of claimed) this.track(number, this.sendGateway(gateway, number));
    return Math.min(waitMs, this.options.idleMs);
  }

  private async sendGateway(gateway: GatewaySending, number: GatewayClaimed): Promise<void> {
    const outcome = await sendThroughGateway(
      this.context,
      gateway,
      number,
      (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      this.unansweredMs().gatewayMs,
    );
    if (outcome.kind === 'held') {
      // A restriction waits for the admin; a device that lost its session is tried again later.
      const until = outcome.code === null ? Date.now() + this.options.pauseMs : null;
      await holdDevice(this.context.database, number.device, {
        reason: outcome.title,
        code: outcome.code,
        until,
      });
      this.context.log.warn({ device: number.device, code: outcome.code }, 'gateway device held');
    }
    this.results.push({
      blastId: number.blastId,
      idx: number.idx,
      outcome,
      at: new Date().toISOString(),
    });
  }

  /**
   * Keeps a claimed number's send in hand: its result is recorded by the next step's flush
   * (within one claim window while sending), which lets the number go; a send that threw has no
   * result, and lets it go at once.
   */
  private track(number: { blastId: string; idx: number }, work: Promise<void>) {
    const key = numberKey(number.blastId, number.idx);
    this.inHand.add(key);
    this.inFlight.add(work);
    work.then(
      () => this.inFlight.delete(work),
      (error: unknown) => {
        this.context.log.error({ err: error }, 'send failed');
        this.inFlight.delete(work);
        this.inHand.delete(key);
      },
    );
  }

  /** Records the results gathered so far in one transaction; a halt is logged. */
  private async flush(): Promise<void> {
    if (this.results.length === 0) return;
    const results = this.results;
    this.results = [];
    try {
      const halt = await recordResults(this.context.database, results, this.options);
      if (halt) this.context.log.warn({ halt }, 'delivery engine halted');
    } catch (error) {
      // Not recorded: the numbers stay sending and their webhooks settle them.
      this.context.log.error({ err: error }, 'recording send results failed');
    }
    for (const result of results) this.inHand.delete(numberKey(result.blastId, result.idx));
  }

  private async send(credentials: CloudApiCredentials, number: Claimed): Promise<void> {
    // The outcome first: a flush during the send replaces `this.results`, and the result must go
    // into the array that is current once the send is answered.
    const outcome = await this.sendOutcome(credentials, number);
    if (outcome.kind === 'refused' && haltsEngine(outcome.code)) this.halted = outcome.code;
    this.results.push({
      blastId: number.blastId,
      idx: number.idx,
      attempt: number.attempt,
      outcome,
      at: new Date().toISOString(),
    });
  }

  private async sendOutcome(
    credentials: CloudApiCredentials,
    number: Claimed,
  ): Promise<SendOutcome> {
    let components: unknown[];
    try {
      components = await this.components(credentials, number);
    } catch (error) {
      // The header image's upload failed: no message was posted, so the number can go again.
      const outcome = this.failedCall(error);
      return outcome.kind === 'unknown' ? { kind: 'unreachable' } : outcome;
    }
    // The blast may have been closed while its image was uploaded.
    const uploaded = number.template.header_format === 'IMAGE' && number.mediaId === null;
    if (uploaded && !(await stillOpen(this.context.database, number.blastId))) {
      return { kind: 'closed' };
    }
    const post = { waitMs: this.unansweredMs().cloudApiMs, requestMs: GRAPH_TIMEOUT_MS };
    if (!mayStillPost(number.claimedAt, post)) return { kind: 'late' };
    // The engine halted after the claim: not posted, the number waits for it to go on.
    if (this.halted !== null)
      return { kind: 'held', code: this.halted, title: errorMeaning(this.halted).meaning };
    try {
      const wamid = await sendTemplate(credentials, {
        to: number.number,
        name: number.template.name,
        language: number.template.language,
        components,
        callbackData: callbackKey(number.blastId, number.idx, number.attempt),
      });
      return { kind: 'accepted', wamid };
    } catch (error) {
      return this.failedCall(error);
    }
  }

  /** What a failed call to Meta came to; an error that is not Meta's answer is logged. */
  private failedCall(error: unknown): SendOutcome {
    if (!(error instanceof GraphError) && !(error instanceof MissingImage))
      this.context.log.error({ err: error }, 'send failed');
    return outcomeOf(error);
  }

  /**
   * The template's header (its image, uploaded once per blast, or its text's values), its body's
   * values and the ends of its URL buttons' addresses.
   */
  private async components(credentials: CloudApiCredentials, number: Claimed) {
    const { header_format: format, parameters } = number.template;
    const components: unknown[] = [];
    if (format === 'IMAGE') {
      const id = number.mediaId ?? (await this.mediaOf(credentials, number));
      components.push({ type: 'header', parameters: [{ type: 'image', image: { id } }] });
    }
    for (const part of ['header', 'body'] as const) {
      const values = textParameters(partValues(parameters, part));
      if (values.length > 0) components.push({ type: part, parameters: values });
    }
    for (const [index, text] of Object.entries(partValues(parameters, 'button'))) {
      components.push({
        type: 'button',
        sub_type: 'url',
        index,
        parameters: [{ type: 'text', text }],
      });
    }
    return components;
  }

  /**
   * The blast's image at Meta, uploaded once: numbers claimed before the upload was kept wait at
   * their slots, so each looks for the kept id first, and those in flight share one upload.
   */
  private mediaOf(credentials: CloudApiCredentials, number: Claimed): Promise<string> {
    let upload = this.uploads.get(number.blastId);
    if (!upload) {
      upload = keptMediaId(this.context.database, number.blastId).then(
        (kept) => kept ?? this.upload(credentials, number),
      );
      this.uploads.set(number.blastId, upload);
      // A failed upload is tried again by the next send; a kept one is read from the row.
      upload.then(
        () => this.uploads.delete(number.blastId),
        () => this.uploads.delete(number.blastId),
      );
    }
    return upload;
  }

  private async upload(credentials: CloudApiCredentials, number: Claimed): Promise<string> {
    const { database, files } = this.context;
    const id = await uploadMedia(credentials, await blastImage(database, files, number.imageUrl!));
    return keepMediaId(database, number.blastId, id);
  }
}

/**
 * What a failed send came to: refused with Meta's code, never sent, or not known. A server error
 * without Meta's error body is a proxy's answer, not Meta's: the message may have gone through.
 */
function outcomeOf(error: unknown): SendOutcome {
  if (error instanceof MissingImage) return { kind: 'unsendable', title: error.message };
  if (!(error instanceof GraphError)) return { kind: 'unknown' };
  switch (error.kind) {
    case 'answer':
      if (error.code === null && (error.status ?? 0) >= 500) return { kind: 'unknown' };
      return { kind: 'refused', code: error.code, title: error.title ?? error.message };
    case 'unreachable':
      return { kind: 'unreachable' };
    default:
      return { kind: 'unknown' };
  }
}

/**
 * A header's or body's values as Meta's text parameters: positional ones (`{{1}}`, `{{2}}` …) in
 * their order, named ones with their names.
 */
function textParameters(values: Record<string, string>) {
  const entries = Object.entries(values);
  const positional = entries.every(([name]) => /^\d+$/.test(name));
  if (!positional) {
    return entries.map(([name, text]) => ({ type: 'text', parameter_name: name, text }));
  }
  return entries
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, text]) => ({ type: 'text', text }));
}
