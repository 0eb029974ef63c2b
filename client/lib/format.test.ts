// Numbers and Rupiah are id-ID's Intl, whatever the number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatRupiah,
  formatTime,
  percentDone,
} from './format.ts';

const number = new Intl.NumberFormat('id-ID');
const rupiah = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
// formatRupiah as it was, all through Intl.
const viaIntl = (value: number) =>
  rupiah.format(Number.isFinite(value) ? value : 0).replace(/\s/g, '');

describe('formatNumber and formatRupiah', () => {
  const edges = [0, -0, 1, -1, 999, 1000, -1000, 1234567, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53];
  const fractions = [0.5, 1.5, 2.5, -2.5, 1234.5678, 0.0001, 1e21, -1e-7];

  it.each([...edges, ...fractions])('write %d as Intl does', (value) => {
    expect(formatNumber(value)).toBe(number.format(value));
    expect(formatRupiah(value)).toBe(viaIntl(value));
  });

  it('write any number as Intl does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true })), (n) => {
        expect(formatNumber(n)).toBe(number.format(n));
        expect(formatRupiah(n)).toBe(viaIntl(n));
      }),
      { numRuns: 2000 },
    );
  });

  it('keep their answers for missing and odd values', () => {
    expect(formatNumber(null)).toBe('0');
    expect(formatNumber(undefined)).toBe('0');
    expect(formatNumber(Number.NaN)).toBe(number.format(Number.NaN));
    expect(formatRupiah('30000')).toBe('Rp30.000');
    expect(formatRupiah('abc')).toBe('Rp0');
    expect(formatRupiah(null)).toBe('Rp0');
    expect(formatRupiah(Number.POSITIVE_INFINITY)).toBe('Rp0');
    expect(formatRupiah(-30000)).toBe('-Rp30.000');
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
