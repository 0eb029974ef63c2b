// The gateway's sending hours: 'HH:MM-HH:MM' in Asia/Jakarta (no daylight saving), the start
// before the end within one day. Work outside them waits for the next opening.
const JAKARTA_OFFSET_MS = 7 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const DAY_MINUTES = 24 * 60;

export const SENDING_HOURS_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]|24):([0-5]\d)$/;

/** The hours as minutes of the day [start, end); null when the text is not valid hours. */
export function parseSendingHours(hours: string): { start: number; end: number } | null {
  const match = SENDING_HOURS_PATTERN.exec(hours);
  if (!match) return null;
  const start = Number(match[1]) * 60 + Number(match[2]);
  const end = Number(match[3]) * 60 + Number(match[4]);
  return start < end && end <= DAY_MINUTES ? { start, end } : null;
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
