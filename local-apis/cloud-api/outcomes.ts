// Scripted outcomes: what happens to a send, chosen by its recipient number. Written as short
// strings ("read", "failed:131049", "reject:130429x2", "timeout:5000") so that a map, a JSON file
// and the number-suffix convention of the CLI all say it the same way.

export type Outcome =
  /** Accepted; statuses sent, delivered, read (the default). */
  | { kind: 'read' }
  /** Accepted; statuses sent, delivered. */
  | { kind: 'delivered' }
  /** Accepted; status sent only. */
  | { kind: 'sent' }
  /**
   * Accepted; then one failed status with `code` (undeliverable is code 131026), `times` times
   * (every time when absent).
   */
  | { kind: 'failed'; code: number; times?: number }
  /** The send itself answers the Graph error `code`, `times` times (every time when absent). */
  | { kind: 'reject'; code: number; times?: number }
  /** Accepted and recorded, but the answer is held for `ms` (the server's timeout when absent). */
  | { kind: 'timeout'; ms?: number }
  /** Recorded with its statuses, then the connection is destroyed without an answer. */
  | { kind: 'lost_answer' }
  /** Recorded with its statuses, then a proxy in front answers 502 with its own HTML page. */
  | { kind: 'bad_gateway' }
  /** Like read, with every status posted twice at the same time. */
  | { kind: 'duplicate' }
  /** Accepted; read is posted before delivered, and no sent. */
  | { kind: 'out_of_order' }
  /** The send answers HTTP 500 and is not recorded. */
  | { kind: 'http_500' };

/** A map by recipient number (digits only, or as Sebar writes it), or a function. */
export type OutcomeSpec = Outcome | string;
export type Outcomes = Record<string, OutcomeSpec> | ((to: string) => OutcomeSpec | undefined);

const SIMPLE = [
  'read',
  'delivered',
  'sent',
  'lost_answer',
  'bad_gateway',
  'duplicate',
  'out_of_order',
  'http_500',
];

/** Reads an outcome string; throws on a string that is none, so a typo in a file is seen. */
export function parseOutcome(text: string): Outcome {
  const value = text.trim();
  if (SIMPLE.includes(value)) return { kind: value } as Outcome;
  if (value === 'undeliverable') return { kind: 'failed', code: 131026 };
  if (value === 'timeout') return { kind: 'timeout' };
  const timeout = /^timeout:(\d+)$/.exec(value);
  if (timeout) return { kind: 'timeout', ms: Number(timeout[1]) };
  const counted = /^(failed|reject):(\d+)(?:x(\d+))?$/.exec(value);
  if (counted) {
    const kind = counted[1] as 'failed' | 'reject';
    const code = Number(counted[2]);
    return counted[3] === undefined ? { kind, code } : { kind, code, times: Number(counted[3]) };
  }
  throw new Error(`Unknown outcome "${text}"`);
}

/** The number-suffix convention of the CLI: the last four digits choose the outcome. */
export const SUFFIX_OUTCOMES: Record<string, string> = {
  '0001': 'undeliverable',
  '0002': 'failed:131049',
  '0003': 'failed:131047',
  '0004': 'failed:131050',
  '0005': 'reject:130429x2',
  '0006': 'reject:131056',
  '0007': 'reject:368',
  '0008': 'reject:190',
  '0009': 'timeout',
  '0010': 'lost_answer',
  '0011': 'duplicate',
  '0012': 'out_of_order',
  '0013': 'http_500',
  '0014': 'delivered',
  '0015': 'sent',
  '0016': 'failed:131048x1',
  '0017': 'failed:131056x1',
  '0018': 'bad_gateway',
};

/** Outcomes by number suffix, for the CLI and for tests that want the same convention. */
export function outcomeBySuffix(to: string): string | undefined {
  return SUFFIX_OUTCOMES[to.replace(/[^0-9]/g, '').slice(-4)];
}

/** The first of several outcome sources that knows the number (a file, then the suffixes). */
export function firstOutcome(...sources: Outcomes[]): Outcomes {
  return (to) => {
    for (const source of sources) {
      const found = lookUp(source, to);
      if (found !== undefined) return found;
    }
    return undefined;
  };
}

function lookUp(source: Outcomes, to: string): OutcomeSpec | undefined {
  if (typeof source === 'function') return source(to);
  const digits = to.replace(/[^0-9]/g, '');
  return source[to] ?? source[digits] ?? source[`+${digits}`];
}

/**
 * Chooses the outcome of each send. A `reject` or `failed` with a count comes that many times for
 * the number, then the sends go through (they read as the default).
 */
export class OutcomeBook {
  private readonly countedSoFar = new Map<string, number>();

  constructor(private readonly outcomes: Outcomes | undefined) {}

  forSend(to: string): Outcome {
    const spec = this.outcomes === undefined ? undefined : lookUp(this.outcomes, to);
    if (spec === undefined) return { kind: 'read' };
    const outcome = typeof spec === 'string' ? parseOutcome(spec) : spec;
    if (!('times' in outcome) || outcome.times === undefined) return outcome;
    const key = to.replace(/[^0-9]/g, '');
    const done = this.countedSoFar.get(key) ?? 0;
    if (done >= outcome.times) return { kind: 'read' };
    this.countedSoFar.set(key, done + 1);
    return outcome;
  }
}
