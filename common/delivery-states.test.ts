// Meta's statuses repeat and arrive out of order: the track only moves forward and keeps times.
import { describe, expect, it } from 'vitest';
import {
  applyStatus,
  numberStatusOf,
  type DeliveryTrack,
  type ReportedStatus,
} from './delivery-states.ts';

const QUEUED: DeliveryTrack = {
  state: 'queued',
  error_code: null,
  sent_at: null,
  delivered_at: null,
  read_at: null,
  failed_at: null,
};

/** The track after each [status, time, code?] in the order given. */
const after = (...events: [ReportedStatus, string, number?][]) =>
  events.reduce((track, [status, at, code]) => applyStatus(track, status, at, code), QUEUED);

describe('a number’s delivery track', () => {
  it('moves forward through sent, delivered and read', () => {
    expect(after(['sent', 't1'], ['delivered', 't2'], ['read', 't3'])).toEqual({
      ...QUEUED,
      state: 'read',
      sent_at: 't1',
      delivered_at: 't2',
      read_at: 't3',
    });
  });

  it('ends as read with both times when read comes before delivered', () => {
    expect(after(['read', 't3'], ['delivered', 't2'])).toEqual({
      ...QUEUED,
      state: 'read',
      delivered_at: 't2',
      read_at: 't3',
    });
  });

  it('is changed once by a repeated status: the first time stays', () => {
    const once = after(['delivered', 't2']);
    expect(applyStatus(once, 'delivered', 't9')).toEqual(once);
  });

  it('takes delivered without sent', () => {
    expect(after(['delivered', 't2']).state).toBe('delivered');
  });

  it('fails from sent with its code, and nothing moves a failed number', () => {
    const failed = after(['sent', 't1'], ['failed', 't2', 131049]);
    expect(failed).toMatchObject({ state: 'failed', error_code: 131049, failed_at: 't2' });
    expect(applyStatus(failed, 'delivered', 't3')).toEqual(failed);
    expect(applyStatus(failed, 'read', 't4')).toEqual(failed);
  });

  it('keeps a delivered number delivered when a late failure arrives, with its time', () => {
    expect(after(['delivered', 't2'], ['failed', 't3', 131000])).toMatchObject({
      state: 'delivered',
      error_code: null,
      failed_at: 't3',
    });
  });

  it('gives the number’s status in the blast', () => {
    expect(numberStatusOf('queued', null)).toBe('pending');
    expect(numberStatusOf('sending', null)).toBe('pending');
    expect(numberStatusOf('sent', null)).toBe('success');
    expect(numberStatusOf('read', null)).toBe('success');
    expect(numberStatusOf('failed', 131026)).toBe('no_wa');
    expect(numberStatusOf('failed', 131049)).toBe('failed');
  });
});
