// The blast form's checks and sentences, without React: SPEC section 5's checks in order, each
// naming the field to fix, and the summary a screen reader hears once typing settles.
import { BLAST_MESSAGES } from '#common/blast-rules.ts';
import { formatNumber } from '#common/format.ts';
import { MAX_NUMBERS_PER_BLAST, POINTS_PER_NUMBER, type NumberAnalysis } from '#common/phone.ts';

export type BlastField = 'message' | 'numbers';

export interface BlastProblem {
  field: BlastField;
  /** The inline text under the field, and the toast's text. */
  text: string;
  /** The toast's title, when SPEC gives one ('Error' otherwise). */
  title?: string;
}

export interface BlastDraft {
  message: string;
  analysis: NumberAnalysis;
  points: number;
}

/** The first of SPEC section 5's checks that fails, or null when the blast may be sent. */
export function blastProblem({ message, analysis, points }: BlastDraft): BlastProblem | null {
  if (!message.trim()) return { field: 'message', text: BLAST_MESSAGES.emptyMessage };
  if (analysis.entered === 0) return { field: 'numbers', text: BLAST_MESSAGES.emptyNumbers };
  if (analysis.entered > MAX_NUMBERS_PER_BLAST) {
    return {
      field: 'numbers',
      title: BLAST_MESSAGES.tooManyTitle,
      text: `${BLAST_MESSAGES.tooMany}. Anda memasukkan ${formatNumber(analysis.entered)} nomor.`,
    };
  }
  if (analysis.invalid.length > 0)
    return { field: 'numbers', text: BLAST_MESSAGES.invalid(analysis.invalid.length) };
  const needed = analysis.unique.length * POINTS_PER_NUMBER;
  if (needed > points) {
    return {
      field: 'numbers',
      title: BLAST_MESSAGES.notEnoughTitle,
      text: BLAST_MESSAGES.notEnough(needed, points),
    };
  }
  return null;
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
