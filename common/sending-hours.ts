// The gateway's sending hours: 'HH:MM-HH:MM' in Asia/Jakarta (no daylight saving), the start
// before the end within one day. Work outside them waits for the next opening.
import { JAKARTA_OFFSET_MS } from './dashboard.ts';

const MINUTE_MS = 60 * 1000;
const DAY_MINUTES = 24 * 60;

/** 'HH:MM-HH:MM', the end at most 24:00. */
export const SENDING_HOURS_PATTERN =
  /^(?:[01]\d|2[0-3]):[0-5]\d-(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

const minuteOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The hours as minutes of the day [start, end); null when the text is not valid hours. */
export function parseSendingHours(hours: string): { start: number; end: number } | null {
  if (!SENDING_HOURS_PATTERN.test(hours)) return null;
  const start = minuteOfDay(hours.slice(0, 5));
  const end = minuteOfDay(hours.slice(6));
  return start < end ? { start, end } : null;
}

/** Whether `at` (epoch ms) is within the hours, and when they next open (`at` itself if open). */
export function sendingWindow(hours: string, at: number): { open: boolean; opensAt: number } {
  const parsed = parseSendingHours(hours);
  if (!parsed) return { open: true, opensAt: at };
  const local = at + JAKARTA_OFFSET_MS;
  const dayStart = local - (local % (DAY_MINUTES * MINUTE_MS));
  const minute = (local - dayStart) / MINUTE_MS;
  if (minute >= parsed.start && minute < parsed.end) return { open: true, opensAt: at };
  const nextDay = minute >= parsed.end ? DAY_MINUTES : 0;
  return {
    open: false,
    opensAt: dayStart + (nextDay + parsed.start) * MINUTE_MS - JAKARTA_OFFSET_MS,
  };
}
