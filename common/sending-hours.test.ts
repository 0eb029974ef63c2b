import { describe, expect, it } from 'vitest';
import { GatewayInputSchema } from './delivery.ts';
import { parseSendingHours, sendingWindow } from './sending-hours.ts';

/** Epoch ms of a Jakarta wall-clock time (UTC+7). */
const wib = (text: string) => Date.parse(`${text}+07:00`);

describe('sending hours', () => {
  it('reads HH:MM-HH:MM with the start before the end', () => {
    expect(parseSendingHours('08:00-20:00')).toEqual({ start: 480, end: 1200 });
    expect(parseSendingHours('00:00-24:00')).toEqual({ start: 0, end: 1440 });
    for (const bad of [
      '20:00-08:00',
      '8:00-20:00',
      '08:00-08:00',
      '08:60-20:00',
      '08:00 20:00',
      '08:00-24:30',
    ])
      expect(parseSendingHours(bad)).toBeNull();
  });

  it('is open within the hours in Asia/Jakarta and says when it opens again', () => {
    const hours = '08:00-20:00';
    expect(sendingWindow(hours, wib('2026-11-28T08:00:00'))).toEqual({
      open: true,
      opensAt: wib('2026-11-28T08:00:00'),
    });
    expect(sendingWindow(hours, wib('2026-11-28T19:59:59')).open).toBe(true);
    // Evening: the next morning; before dawn: the same morning.
    expect(sendingWindow(hours, wib('2026-11-28T20:00:00'))).toEqual({
      open: false,
      opensAt: wib('2026-11-29T08:00:00'),
    });
    expect(sendingWindow(hours, wib('2026-11-29T03:15:00'))).toEqual({
      open: false,
      opensAt: wib('2026-11-29T08:00:00'),
    });
  });
});

describe('the settings schema', () => {
  it('takes every hours text the engine reads, all day included, and no other', () => {
    const accepts = (sending_hours: string) =>
      GatewayInputSchema.safeParse({ sending_hours }).success;
    // All day: what the engine reads as [0, 1440), and what an admin writes for "always".
    for (const good of ['00:00-24:00', '08:00-24:00', '08:00-20:00', '00:00-23:59'])
      expect(accepts(good), good).toBe(true);
    for (const bad of ['00:00-24:30', '24:00-24:00', '20:00-08:00', '08:00-25:00'])
      expect(accepts(bad), bad).toBe(false);
    for (const hours of ['00:00-24:00', '08:00-24:00', '00:00-24:30', '24:00-24:00'])
      expect(accepts(hours), hours).toBe(parseSendingHours(hours) !== null);
  });
});
