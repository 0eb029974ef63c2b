// Scripted outcomes: what happens to a send, chosen by its recipient number. Written as short
// strings ("read", "reject:463", "reject:475x2", "timeout:5000") so that a map, a JSON file and the
// number-suffix convention of the CLI all say it the same way, as the local Cloud API's do.

export type Outcome =
  /** Accepted; acks SERVER, DEVICE, READ (the default). */
  | { kind: 'read' }
  /** Accepted; acks SERVER, DEVICE. */
  | { kind: 'delivered' }
  /** Accepted; ack SERVER only. */
  | { kind: 'sent' }
  /** Accepted; acks SERVER, DEVICE, READ, PLAYED. */
  | { kind: 'played' }
  /** check-exists says false; a send is still accepted, then acked ERROR. */
  | { kind: 'not_on_whatsapp' }
  /** Accepted; then one ERROR ack. */
  | { kind: 'error' }
  /** Like read, every ack posted twice at the same time. */
  | { kind: 'duplicate' }
  /** Accepted; READ posted before DEVICE, and no SERVER. */
  | { kind: 'out_of_order' }
  /** The send answers WhatsApp's error `code` (500), `times` times (every time when absent). */
  | { kind: 'reject'; code: number; times?: number }
  /** Accepted and recorded, the answer held `ms` (the double's timeout when absent). */
  | { kind: 'timeout'; ms?: number }
  /** Recorded with its acks, then the connection is destroyed without an answer. */
  | { kind: 'lost_answer' }
  /** Recorded with its acks; a proxy in front answers 502 with its own HTML page. */
  | { kind: 'bad_gateway' };

/** A map by recipient number (digits, `+digits` or a chat id), or a function of the chat id. */
export type OutcomeSpec = Outcome | string;
export type Outcomes = Record<string, OutcomeSpec> | ((chatId: string) => OutcomeSpec | undefined);

const SIMPLE = [
  'read',
  'delivered',
  'sent',
  'played',
  'not_on_whatsapp',
  'error',
  'duplicate',
  'out_of_order',
  'lost_answer',
  'bad_gateway',
];

/** Reads an outcome string; throws on a string that is none, so a typo in a file is seen. */
export function parseOutcome(text: string): Outcome {
  const value = text.trim();
  if (SIMPLE.includes(value)) return { kind: value } as Outcome;
  if (value === 'timeout') return { kind: 'timeout' };
  const timeout = /^timeout:(\d+)$/.exec(value);
  if (timeout) return { kind: 'timeout', ms: Number(timeout[1]) };
  const reject = /^reject:(\d+)(?:x(\d+))?$/.exec(value);
  if (reject) {
    const code = Number(reject[1]);
    return reject[2] === undefined
      ? { kind: 'reject', code }
      : { kind: 'reject', code, times: Number(reject[2]) };
  }
  throw new Error(`Unknown outcome "${text}"`);
}

/** The number-suffix convention of the CLI: the last four digits choose the outcome. */
export const SUFFIX_OUTCOMES: Record<string, string> = {
  '0001': 'not_on_whatsapp',
  '0002': 'error',
  '0003': 'reject:463',
  '0004': 'reject:475',
  '0005': 'reject:463x1',
  '0006': 'timeout',
  '0007': 'lost_answer',
  '0008': 'duplicate',
  '0009': 'out_of_order',
  '0010': 'delivered',
  '0011': 'sent',
  '0012': 'played',
  '0013': 'bad_gateway',
};

/** Outcomes by number suffix, for the CLI and for tests that want the same convention. */
export function outcomeBySuffix(chatId: string): string | undefined {
  return SUFFIX_OUTCOMES[
    chatId
      .replace(/@.*$/, '')
      .replace(/[^0-9]/g, '')
      .slice(-4)
  ];
}

/** The first of several outcome sources that knows the number (a file, then the suffixes). */
export function firstOutcome(...sources: Outcomes[]): Outcomes {
  return (chatId) => {
    for (const source of sources) {
      const found = lookUp(source, chatId);
      if (found !== undefined) return found;
    }
    return undefined;
  };
}

function lookUp(source: Outcomes, chatId: string): OutcomeSpec | undefined {
  if (typeof source === 'function') return source(chatId);
  const digits = chatId.replace(/@.*$/, '').replace(/[^0-9]/g, '');
  return source[chatId] ?? source[digits] ?? source[`+${digits}`];
}

/**
 * Chooses the outcome of each send. A `reject` with a count answers its error that many times
 * for the number, then lets the sends through (they read as the default).
 */
export class OutcomeBook {
  private readonly rejectedSoFar = new Map<string, number>();

  constructor(private readonly outcomes: Outcomes | undefined) {}

  /** The scripted outcome, without counting it as a send. */
  peek(chatId: string): Outcome {
    const spec = this.outcomes === undefined ? undefined : lookUp(this.outcomes, chatId);
    if (spec === undefined) return { kind: 'read' };
    return typeof spec === 'string' ? parseOutcome(spec) : spec;
  }

  /** Whether check-exists finds the number on WhatsApp. */
  exists(chatId: string): boolean {
    return this.peek(chatId).kind !== 'not_on_whatsapp';
  }

  forSend(chatId: string): Outcome {
    const outcome = this.peek(chatId);
    if (outcome.kind !== 'reject' || outcome.times === undefined) return outcome;
    const done = this.rejectedSoFar.get(chatId) ?? 0;
    if (done >= outcome.times) return { kind: 'read' };
    this.rejectedSoFar.set(chatId, done + 1);
    return outcome;
  }
}
