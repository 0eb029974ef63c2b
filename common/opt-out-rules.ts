// The opt-out rules without zod, so the blast form does not download it; opt-outs.ts re-exports
// them: the keywords that put a sender on the list, and the messages the list's users read.
import { formatNumber } from './format.ts';

/** A message that is one of these words, and nothing else, opts its sender out (decision 210). */
export const OPT_OUT_KEYWORDS = ['STOP', 'BERHENTI', 'UNSUB'] as const;
export type OptOutKeyword = (typeof OPT_OUT_KEYWORDS)[number];

/** Anything but letters and digits at either end: punctuation, symbols, emoji, white space. */
const AROUND = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * The keyword a message says, or null. The whole text must be the keyword, in any letter case,
 * with punctuation, symbols or emoji around it allowed ('Stop!', '*berhenti*', 'unsub 🙏');
 * anything more ('stop please', 'jangan berhenti', 'STOP2') is an ordinary message.
 */
export function optOutKeyword(text: string): OptOutKeyword | null {
  const word = text.replace(AROUND, '').toUpperCase();
  return (OPT_OUT_KEYWORDS as readonly string[]).includes(word) ? (word as OptOutKeyword) : null;
}

export const OPT_OUT_MESSAGES = {
  /** What the client is told after a blast left opted-out numbers out (issue 29). */
  notice: (n: number) => `${formatNumber(n)} nomor telah berhenti berlangganan`,
  allOptedOut: (n: number) =>
    `${formatNumber(n)} nomor telah berhenti berlangganan. Tidak ada nomor tersisa untuk dikirimi blast ini.`,
  numberRequired: 'Nomor harus diisi',
  invalidNumber: 'Nomor tidak valid. Mohon perbaiki format nomor',
  alreadyListed: 'Nomor ini sudah ada di daftar berhenti berlangganan',
  notListed: 'Nomor tidak ada di daftar berhenti berlangganan',
  added: 'Nomor ditambahkan ke daftar berhenti berlangganan',
  removed: 'Nomor dihapus dari daftar berhenti berlangganan',
} as const;
