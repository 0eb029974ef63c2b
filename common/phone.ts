// Phone-number rules of SPEC section 5, shared by the blast form and the server.

export const MAX_NUMBERS_PER_BLAST = 500;
export const POINTS_PER_NUMBER = 1;

/** SPEC: optional +62, 62, 0 or bare 8 prefix followed by 8 to 12 digits (spaces and hyphens removed). */
const PHONE_PATTERN = /^(?:\+62|62|0|8)?\d{8,12}$/;

/** Splits on newlines, commas, semicolons or whitespace and drops empty parts. */
export function splitNumbers(text: string): string[] {
  return text.split(/[\n,;\s]+/).filter((part) => part.length > 0);
}

export function cleanNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

export function isValidNumber(raw: string): boolean {
  return PHONE_PATTERN.test(cleanNumber(raw));
}

/** The international form of a cleaned number: +62/62 kept, a leading 0 dropped, else prefixed. */
function international(clean: string): string {
  const digits = clean.startsWith('+') ? clean.slice(1) : clean;
  if (digits.startsWith('62')) return digits;
  if (digits.startsWith('0')) return `62${digits.slice(1)}`;
  return `62${digits}`;
}

/** The international digits form 62...: +62/62 kept, a leading 0 dropped, anything else prefixed. */
export function normalizeNumber(raw: string): string {
  return international(cleanNumber(raw));
}

export interface NumberAnalysis {
  /** Parts as entered, after splitting. */
  entered: number;
  invalid: string[];
  /** Valid numbers, normalised, first occurrence kept, in entry order. */
  unique: string[];
  duplicates: number;
}

export function analyzeNumbers(parts: readonly string[]): NumberAnalysis {
  const invalid: string[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const part of parts) {
    const clean = cleanNumber(part);
    if (!PHONE_PATTERN.test(clean)) {
      invalid.push(part);
      continue;
    }
    const normal = international(clean);
    if (seen.has(normal)) duplicates += 1;
    else seen.add(normal);
  }
  return { entered: parts.length, invalid, unique: [...seen], duplicates };
}
