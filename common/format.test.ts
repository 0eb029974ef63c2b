// id-ID numbers and Asia/Jakarta dates everywhere, including the texts the server writes.
import { describe, expect, it } from 'vitest';
import { BLAST_MESSAGES } from './blast-rules.ts';
import {
  formatDate,
  formatDateTime,
  formatFigure,
  formatMegabytes,
  formatNumber,
  formatRupiah,
  formatTime,
  percentDone,
} from './format.ts';

describe('id-ID numbers', () => {
  it('group thousands with a dot and write decimals with a comma', () => {
    expect(formatNumber(1000)).toBe('1.000');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatNumber(-2000)).toBe('-2.000');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatMegabytes(9_740_000)).toBe('9,29 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1,00 MB');
    // A small image is not shown as empty; nothing at all is.
    expect(formatMegabytes(94)).toBe('< 0,01 MB');
    expect(formatMegabytes(5242)).toBe('< 0,01 MB');
    expect(formatMegabytes(5243)).toBe('0,01 MB');
    expect(formatMegabytes(0)).toBe('0,00 MB');
    expect(formatRupiah(30000)).toBe('Rp30.000');
    expect(formatRupiah('30000')).toBe('Rp30.000');
    expect(formatRupiah(-30000)).toBe('-Rp30.000');
  });

  it('keep their answers for missing and odd values', () => {
    expect(formatNumber(null)).toBe('0');
    expect(formatNumber(undefined)).toBe('0');
    expect(formatFigure(undefined)).toBe('-');
    expect(formatFigure(0)).toBe('0');
    expect(formatRupiah('abc')).toBe('Rp0');
    expect(formatRupiah(null)).toBe('Rp0');
    expect(formatRupiah(Number.POSITIVE_INFINITY)).toBe('Rp0');
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

describe('dates', () => {
  it('are id-ID in Asia/Jakarta, and "-" when missing or invalid', () => {
    expect(formatDate('2025-01-05T17:30:00Z')).toBe('6 Jan 2025');
    expect(formatDateTime('2025-01-05T07:30:00Z')).toBe('5 Jan 2025, 14.30');
    expect(formatTime('2025-01-05T07:30:00Z')).toBe('14.30');
    for (const format of [formatDate, formatDateTime, formatTime]) {
      expect(format(null)).toBe('-');
      expect(format('not a date')).toBe('-');
    }
  });
});

describe('progress', () => {
  it('is a whole percent rounded down: 100% only when every number is done', () => {
    expect(percentDone(499, 500)).toBe(99);
    expect(percentDone(500, 500)).toBe(100);
    expect(percentDone(3, 4)).toBe(75);
    expect(percentDone(1, 3)).toBe(33);
    expect(percentDone(0, 0)).toBe(0);
  });
});
