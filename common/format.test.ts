// id-ID numbers everywhere, including the texts the server writes.
import { describe, expect, it } from 'vitest';
import { BLAST_MESSAGES } from './blast-rules.ts';
import { formatMegabytes, formatNumber, formatRupiah } from './format.ts';

describe('id-ID numbers', () => {
  it('group thousands with a dot and write decimals with a comma', () => {
    expect(formatNumber(1000)).toBe('1.000');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatNumber(-2000)).toBe('-2.000');
    expect(formatNumber(null)).toBe('0');
    expect(formatMegabytes(9_740_000)).toBe('9,29 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1,00 MB');
    expect(formatRupiah(30000)).toBe('Rp30.000');
    expect(formatRupiah('abc')).toBe('Rp0');
  });

  it('in the blast messages the form and the server both show', () => {
    expect(BLAST_MESSAGES.notEnough(1500, 1000)).toBe(
      'Anda membutuhkan 1.500 poin, tetapi hanya memiliki 1.000 poin',
    );
    expect(BLAST_MESSAGES.invalid(1200)).toBe(
      '1.200 nomor tidak valid. Mohon perbaiki format nomor',
    );
  });
});
