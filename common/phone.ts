// Phone-number rules of SPEC section 5, shared by the blast form and the server.

export const MAX_NUMBERS_PER_BLAST = 500;
export const POINTS_PER_NUMBER = 1;

/** SPEC: optional +62, 62, 0 or bare 8 prefix followed by 8 to 12 digits (spaces and hyphens removed). */
const PHONE_PATTERN = /^(?:\+62|62|0|8)?\d{8,12}$/;

/**
 * SPEC's split (newlines, commas, semicolons or whitespace; empty parts dropped), except that a
 * line or a comma- or semicolon-separated part that is one valid number once its spaces and
 * hyphens are gone stays that one number: '+62 812 3456 7891', as WhatsApp copies it. Two valid
 * numbers never join into one (at least 16 digits), so a line of them still splits on spaces.
 */
export function splitNumbers(text: string): string[] {
  return text.split(/[\n,;]+/).flatMap((segment) => {
    const part = segment.trim();
    if (part === '') return [];
    return isValidNumber(part) ? [part] : part.split(/\s+/);
  });
}

/** The text with only its valid parts, one a line: what 'Hapus nomor tidak valid' leaves. */
export function withoutInvalidNumbers(text: string): string {
  return splitNumbers(text).filter(isValidNumber).join('\n');
}

export function cleanNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

export function isValidNumber(raw: string): boolean {
  return internationalIfValid(raw) !== null;
}

/** The international form of a cleaned number: +62/62 kept, a leading 0 dropped, else prefixed. */
function international(clean: string): string {
  const digits = clean.startsWith('+') ? clean.slice(1) : clean;
  if (digits.startsWith('62')) return digits;
  if (digits.startsWith('0')) return `62${digits.slice(1)}`;
  return `62${digits}`;
}

/**
 * The international form of a valid number, else null. Valid is SPEC's pattern, and the same
 * pattern again on the international form: the server checks the numbers the form sends, and
 * '8' with 12 digits passes the first but not as 62 with 13 digits, so the form refuses it too.
 */
function internationalIfValid(raw: string): string | null {
  const clean = cleanNumber(raw);
  if (!PHONE_PATTERN.test(clean)) return null;
  const normal = international(clean);
  return PHONE_PATTERN.test(normal) ? normal : null;
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
    const normal = internationalIfValid(part);
    if (normal === null) {
      invalid.push(part);
      continue;
    }
    if (seen.has(normal)) duplicates += 1;
    else seen.add(normal);
  }
  return { entered: parts.length, invalid, unique: [...seen], duplicates };
}
