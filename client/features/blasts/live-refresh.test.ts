// When a blast screen reads again: a Cloud API detail keeps following numbers that Meta may still
// move after the blast completed, for a while, and stops once nothing can move.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryState } from '#common/delivery-states.ts';
import { LIVE_MS, refreshBlastList, refreshDetail, SETTLING_MS } from './live-refresh.ts';

const NOW = Date.parse('2026-01-10T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const blast = (
  states: DeliveryState[],
  overrides: { status?: 'pending' | 'completed' | 'cancelled'; processed_at?: string | null } = {},
) => ({
  status: overrides.status ?? 'completed',
  delivery_mode: 'cloud_api' as const,
  processed_at: overrides.processed_at === undefined ? ago(1_000) : overrides.processed_at,
  numbers: states.map((state, index) => ({
    index,
    number: `62812000000${index}`,
    status: 'success' as const,
    delivery: { state } as never,
  })),
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refreshDetail', () => {
  it('follows a blast being sent', () => {
    expect(refreshDetail(blast(['queued'], { status: 'pending', processed_at: null }))).toBe(
      LIVE_MS,
    );
  });

  it('follows a completed blast while numbers can still move, for a while', () => {
    expect(refreshDetail(blast(['read', 'sent']))).toBe(LIVE_MS);
    expect(refreshDetail(blast(['failed', 'delivered'], { status: 'cancelled' }))).toBe(LIVE_MS);
    expect(refreshDetail(blast(['sent'], { processed_at: ago(SETTLING_MS + 1) }))).toBe(false);
  });

  it('stops once every number is read or failed, and never follows a manual blast', () => {
    expect(refreshDetail(blast(['read', 'failed']))).toBe(false);
    expect(refreshDetail({ ...blast(['sent']), delivery_mode: 'manual' })).toBe(false);
    expect(refreshDetail(undefined)).toBe(false);
  });
});

describe('a gateway blast', () => {
  it('is followed live as a Cloud API one is, in its detail and in the lists', () => {
    const sending = { ...blast(['queued'], { status: 'pending', processed_at: null }) };
    const gateway = { ...sending, delivery_mode: 'gateway' as const };
    expect(refreshDetail(gateway)).toBe(LIVE_MS);
    expect(refreshDetail({ ...blast(['sent']), delivery_mode: 'gateway' })).toBe(LIVE_MS);
    expect(refreshBlastList([gateway])).toBe(LIVE_MS);
  });
});
