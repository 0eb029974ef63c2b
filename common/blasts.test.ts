// The result rule: a submitted result keeps the saved per-number statuses its counts leave room
// for, and its statuses always count to what was submitted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NUMBER_STATUSES, resultFormCounts, resultStatuses, type NumberStatus } from './blasts.ts';

const countOf = (statuses: readonly NumberStatus[], status: NumberStatus) =>
  statuses.filter((s) => s === status).length;

/** Saved statuses, and counts whose sum is at most their number (the server refuses more). */
const savedAndCounts = fc
  .array(fc.constantFrom(...NUMBER_STATUSES), { minLength: 1, maxLength: 40 })
  .chain((saved) =>
    fc
      .tuple(fc.nat(saved.length), fc.nat(saved.length), fc.nat(saved.length))
      .filter(([s, f, n]) => s + f + n <= saved.length)
      .map(([s, f, n]) => ({
        saved,
        counts: { successful_count: s, failed_count: f, no_wa_count: n },
      })),
  );

describe('resultStatuses', () => {
  it('keeps the saved statuses of the issue and assigns only the rest, in order', () => {
    const saved: NumberStatus[] = ['success', 'failed', 'no_wa', 'success', 'pending', 'pending'];
    expect(
      resultStatuses([...saved, 'pending'], {
        successful_count: 5,
        failed_count: 1,
        no_wa_count: 1,
      }),
    ).toEqual(['success', 'failed', 'no_wa', 'success', 'success', 'success', 'success']);
    // Two more failures than saved: the first numbers not kept take them, after the successes.
    expect(
      resultStatuses([...saved, 'pending'], {
        successful_count: 2,
        failed_count: 3,
        no_wa_count: 1,
      }),
    ).toEqual(['success', 'failed', 'no_wa', 'success', 'failed', 'failed', 'pending']);
    // Fewer successes than saved: the earliest saved ones stay.
    expect(
      resultStatuses(['success', 'success', 'failed'], {
        successful_count: 1,
        failed_count: 2,
        no_wa_count: 0,
      }),
    ).toEqual(['success', 'failed', 'failed']);
  });

  it('with nothing saved, assigns by position (successes, failures, no WA, the rest pending)', () => {
    fc.assert(
      fc.property(savedAndCounts, ({ saved, counts }) => {
        const { successful_count: s, failed_count: f, no_wa_count: n } = counts;
        const pending = saved.map((): NumberStatus => 'pending');
        expect(resultStatuses(pending, counts)).toEqual(
          pending.map((_, i) =>
            i < s ? 'success' : i < s + f ? 'failed' : i < s + f + n ? 'no_wa' : 'pending',
          ),
        );
      }),
    );
  });

  it('the statuses count exactly to the submitted counts', () => {
    fc.assert(
      fc.property(savedAndCounts, ({ saved, counts }) => {
        const result = resultStatuses(saved, counts);
        expect(result).toHaveLength(saved.length);
        expect(countOf(result, 'success')).toBe(counts.successful_count);
        expect(countOf(result, 'failed')).toBe(counts.failed_count);
        expect(countOf(result, 'no_wa')).toBe(counts.no_wa_count);
      }),
    );
  });

  it('keeps every saved status its count leaves room for, and changes no more numbers', () => {
    fc.assert(
      fc.property(savedAndCounts, ({ saved, counts }) => {
        const result = resultStatuses(saved, counts);
        const target = {
          success: counts.successful_count,
          failed: counts.failed_count,
          no_wa: counts.no_wa_count,
        };
        for (const status of ['success', 'failed', 'no_wa'] as const) {
          const kept = saved.filter((s, i) => s === status && result[i] === status).length;
          expect(kept).toBe(Math.min(countOf(saved, status), target[status]));
        }
        // When every count leaves room, every saved result stays as it was.
        if ((['success', 'failed', 'no_wa'] as const).every((s) => countOf(saved, s) <= target[s]))
          saved.forEach((s, i) => s !== 'pending' && expect(result[i]).toBe(s));
      }),
    );
  });
});

describe('resultFormCounts', () => {
  it('starts a pending blast from its saved statuses, pending numbers counted successful', () => {
    expect(
      resultFormCounts({
        status: 'pending',
        total_numbers: 7,
        successful_count: 2,
        failed_count: 1,
        no_wa_count: 1,
      }),
    ).toEqual({ successful_count: 5, failed_count: 1, no_wa_count: 1 });
    // Nothing saved: SPEC's default, every number successful.
    expect(
      resultFormCounts({
        status: 'pending',
        total_numbers: 7,
        successful_count: 0,
        failed_count: 0,
        no_wa_count: 0,
      }),
    ).toEqual({ successful_count: 7, failed_count: 0, no_wa_count: 0 });
  });

  it('starts a re-edit from the saved counts (SPEC: prefills existing values)', () => {
    expect(
      resultFormCounts({
        status: 'completed',
        total_numbers: 7,
        successful_count: 2,
        failed_count: 1,
        no_wa_count: 1,
      }),
    ).toEqual({ successful_count: 2, failed_count: 1, no_wa_count: 1 });
  });
});
