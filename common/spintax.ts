// Spintax for free-text blasts in gateway mode (decision 213), without zod so the blast form can
// use it. A message may hold choices `{Halo|Hai|Selamat pagi}` (one option picked per recipient)
// and the variable `{nomor}` (the recipient's number, 628…). The rules, kept simple:
// - a choice has at least two options and none of them blank; options are kept as typed (spaces
//   included) and may not contain braces: no nesting, so `{nomor}` cannot stand inside a choice;
// - `{nomor}` may be written in any case and with spaces inside the braces (`{ Nomor }`);
// - any other `{word}` without a `|`, `{}`, and an unmatched `{` or `}` are refused: text with
//   braces would reach every recipient as typed, usually a mistyped variable such as `{nama}`;
// - the raw message is at most MAX_MESSAGE_LENGTH characters (the schema's check) and so is its
//   longest rendering, counting `{nomor}` as the longest number (15 digits).
// A rendering is decided by its seed: the engine seeds with the blast and the number's index
// (`spintaxSeed`), so a retry sends the same text.
import { MAX_MESSAGE_LENGTH } from './blast-rules.ts';

/** The longest number `{nomor}` can become (E.164's limit; Sebar's 628… numbers are shorter). */
export const MAX_NUMBER_LENGTH = 15;

export const SPINTAX_MESSAGES = {
  unclosed: 'Spintax tidak valid: ada "{" yang tidak ditutup dengan "}"',
  unopened: 'Spintax tidak valid: ada "}" tanpa "{" pembuka',
  nested: 'Spintax tidak valid: pilihan tidak boleh berisi "{" atau "}" (tidak boleh bertingkat)',
  empty: 'Spintax tidak valid: "{}" kosong',
  blankOption: (choice: string) =>
    `Spintax tidak valid: pilihan kosong di ${choice}. Setiap pilihan harus berisi teks`,
  unknownVariable: (word: string) =>
    `Variabel ${word} tidak dikenal. Gunakan {nomor} atau pilihan seperti {Halo|Hai}`,
  tooLong: (length: number) =>
    `Pesan terpanjang hasil spintax ${length} karakter, maksimal ${MAX_MESSAGE_LENGTH} karakter`,
} as const;

/** A piece of a message: text as is, a choice of options, or the recipient's number. */
export type SpintaxPart =
  { kind: 'text'; text: string } | { kind: 'choice'; options: string[] } | { kind: 'number' };

type Parsed = { parts: SpintaxPart[]; problem: null } | { parts: null; problem: string };

const NUMBER_VARIABLE = /^\s*nomor\s*$/i;

/** The message's parts, or the first problem in it (Indonesian). */
export function parseSpintax(message: string): Parsed {
  const parts: SpintaxPart[] = [];
  let at = 0;
  while (at < message.length) {
    const open = message.indexOf('{', at);
    const close = message.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open))
      return { parts: null, problem: SPINTAX_MESSAGES.unopened };
    if (open === -1) {
      parts.push({ kind: 'text', text: message.slice(at) });
      break;
    }
    if (open > at) parts.push({ kind: 'text', text: message.slice(at, open) });
    if (close === -1) return { parts: null, problem: SPINTAX_MESSAGES.unclosed };
    const inner = message.slice(open + 1, close);
    if (inner.includes('{')) return { parts: null, problem: SPINTAX_MESSAGES.nested };
    const part = braced(inner);
    if (typeof part === 'string') return { parts: null, problem: part };
    parts.push(part);
    at = close + 1;
  }
  return { parts, problem: null };
}

/** What `{inner}` is, or why it is refused. */
function braced(inner: string): SpintaxPart | string {
  if (inner.includes('|')) {
    const options = inner.split('|');
    if (options.some((option) => option.trim() === ''))
      return SPINTAX_MESSAGES.blankOption(`{${inner}}`);
    return { kind: 'choice', options };
  }
  if (NUMBER_VARIABLE.test(inner)) return { kind: 'number' };
  if (inner.trim() === '') return SPINTAX_MESSAGES.empty;
  return SPINTAX_MESSAGES.unknownVariable(`{${inner}}`);
}

/** The length of the message's longest rendering, `{nomor}` counted as MAX_NUMBER_LENGTH. */
export function longestRendering(parts: readonly SpintaxPart[]): number {
  let length = 0;
  for (const part of parts) {
    if (part.kind === 'text') length += part.text.length;
    else if (part.kind === 'number') length += MAX_NUMBER_LENGTH;
    else length += Math.max(...part.options.map((option) => option.length));
  }
  return length;
}

/** Why the message's spintax is refused (Indonesian), or null when it may be sent. */
export function spintaxProblem(message: string): string | null {
  const parsed = parseSpintax(message);
  if (parsed.problem !== null) return parsed.problem;
  const longest = longestRendering(parsed.parts);
  return longest > MAX_MESSAGE_LENGTH ? SPINTAX_MESSAGES.tooLong(longest) : null;
}

/** How many different texts the choices can make (capped, for the form's hint). */
export function spintaxVariations(message: string, cap = 1_000_000): number {
  const { parts } = parseSpintax(message);
  let count = 1;
  for (const part of parts ?? [])
    if (part.kind === 'choice') count = Math.min(cap, count * part.options.length);
  return count;
}

/** The seed the engine renders a blast's number with: the same number always reads the same. */
export const spintaxSeed = (blastId: string, index: number): string => `${blastId}:${index}`;

/** A 32-bit hash of the seed (FNV-1a over its UTF-16 code units); a number is taken as is. */
function seedBits(seed: string | number): number {
  if (typeof seed === 'number') return seed >>> 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The text `number` receives: one option of each choice, drawn in order by the seed's generator,
 * and `{nomor}` as `number`. The same message, number and seed give the same text. Throws on a
 * message `spintaxProblem` refuses (the server never stores one).
 */
export function renderMessage(message: string, number: string, seed: string | number): string {
  const parsed = parseSpintax(message);
  if (parsed.problem !== null) throw new Error(parsed.problem);
  const next = generator(seedBits(seed));
  return parsed.parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (part.kind === 'number') return number;
      return part.options[Math.floor(next() * part.options.length)]!;
    })
    .join('');
}
