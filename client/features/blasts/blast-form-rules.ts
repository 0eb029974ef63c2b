// The blast form's checks and sentences, without React: SPEC section 5's checks in order, each
// naming the field to fix (in gateway mode the message's spintax too, decision 213), as the form's
// resolver, and the summary a screen reader hears once typing settles.
import type { FieldErrors, ResolverResult } from 'react-hook-form';
import { BLAST_MESSAGES } from '#common/blast-rules.ts';
import { formatNumber } from '#common/format.ts';
import {
  analyzeNumbers,
  MAX_NUMBERS_PER_BLAST,
  POINTS_PER_NUMBER,
  splitNumbers,
  type NumberAnalysis,
} from '#common/phone.ts';
import { spintaxProblem } from '#common/spintax.ts';

export type BlastField = 'message' | 'numbers';
/** The check that failed: a field left empty, too many numbers, invalid ones, too few points. */
export type BlastRule = 'required' | 'max' | 'pattern' | 'points';

export interface BlastProblem {
  field: BlastField;
  rule: BlastRule;
  /** The inline text under the field, and the toast's text. */
  text: string;
}

/** The toast's title for a failed check: SPEC's where it gives one, else 'Error'. */
export const problemTitle = (rule: string): string =>
  rule === 'max'
    ? BLAST_MESSAGES.tooManyTitle
    : rule === 'points'
      ? BLAST_MESSAGES.notEnoughTitle
      : 'Error';

export interface BlastDraft {
  message: string;
  analysis: NumberAnalysis;
  points: number;
  /** Gateway mode: the message's spintax is checked too, after its emptiness. */
  spintax?: boolean;
}

/** The first of SPEC section 5's checks that fails, or null when the blast may be sent. */
export function blastProblem({
  message,
  analysis,
  points,
  spintax = false,
}: BlastDraft): BlastProblem | null {
  if (!message.trim()) {
    return { field: 'message', rule: 'required', text: BLAST_MESSAGES.emptyMessage };
  }
  const problem = spintax ? spintaxProblem(message) : null;
  if (problem) return { field: 'message', rule: 'pattern', text: problem };
  return numbersProblem(analysis, points);
}

/** The numbers' checks of SPEC section 5 (after the message), or null when they pass. */
export function numbersProblem(
  analysis: NumberAnalysis,
  points: number,
): (BlastProblem & { field: 'numbers' }) | null {
  if (analysis.entered === 0) {
    return { field: 'numbers', rule: 'required', text: BLAST_MESSAGES.emptyNumbers };
  }
  if (analysis.entered > MAX_NUMBERS_PER_BLAST) {
    return {
      field: 'numbers',
      rule: 'max',
      text: `${BLAST_MESSAGES.tooMany}. Anda memasukkan ${formatNumber(analysis.entered)} nomor.`,
    };
  }
  if (analysis.invalid.length > 0) {
    return {
      field: 'numbers',
      rule: 'pattern',
      text: BLAST_MESSAGES.invalid(analysis.invalid.length),
    };
  }
  const needed = analysis.unique.length * POINTS_PER_NUMBER;
  if (needed > points) {
    return {
      field: 'numbers',
      rule: 'points',
      text: BLAST_MESSAGES.notEnough(needed, points),
    };
  }
  return null;
}

/** What the form holds: the numbers as typed, the message and the chosen image. */
export interface BlastFormValues {
  numbers: string;
  message: string;
  image: File | null;
}

/** What a checked form sends: the message, the valid numbers once each, the image if allowed. */
export interface BlastToSend {
  message: string;
  numbers: string[];
  image: File | null;
}

export interface BlastFormContext {
  points: number;
  allowImages: boolean;
  /** Gateway mode: the message may hold spintax and {nomor}, checked with the server's rules. */
  spintax?: boolean;
}

/** The form's resolver: the first failed check as its field's error, else what to send. */
export function blastResolver(
  values: BlastFormValues,
  context?: BlastFormContext,
): ResolverResult<BlastFormValues, BlastToSend> {
  const { points = 0, allowImages = false, spintax = false } = context ?? {};
  const analysis = analyzeNumbers(splitNumbers(values.numbers));
  const problem = blastProblem({ message: values.message, analysis, points, spintax });
  if (problem) {
    const errors: FieldErrors<BlastFormValues> = {
      [problem.field]: { type: problem.rule, message: problem.text },
    };
    return { values: {}, errors };
  }
  const image = allowImages ? values.image : null;
  return { values: { message: values.message, numbers: analysis.unique, image }, errors: {} };
}

/**
 * The numbers' summary in whole sentences ('' for an empty list), e.g. '3 nomor valid dari
 * maksimal 500. 1 nomor tidak valid. Dibutuhkan 3 poin, tersedia 10 poin.'
 */
export function numbersSentence(analysis: NumberAnalysis, points: number): string {
  if (analysis.entered === 0) return '';
  const valid = analysis.unique.length;
  const needed = valid * POINTS_PER_NUMBER;
  const sentences = [
    `${formatNumber(valid)} nomor valid dari maksimal ${formatNumber(MAX_NUMBERS_PER_BLAST)}.`,
  ];
  if (analysis.entered > MAX_NUMBERS_PER_BLAST)
    sentences.push(`${formatNumber(analysis.entered)} nomor dimasukkan, melebihi batas.`);
  if (analysis.invalid.length > 0)
    sentences.push(`${formatNumber(analysis.invalid.length)} nomor tidak valid.`);
  if (analysis.duplicates > 0)
    sentences.push(`${formatNumber(analysis.duplicates)} nomor duplikat dihapus.`);
  sentences.push(`Dibutuhkan ${formatNumber(needed)} poin, tersedia ${formatNumber(points)} poin.`);
  if (needed > points) sentences.push(`Kekurangan ${formatNumber(needed - points)} poin.`);
  return sentences.join(' ');
}
