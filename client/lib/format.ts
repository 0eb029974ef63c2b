// The one money, number and date formatter: numbers and Rupiah are common/'s (the server's texts
// use them too), dates are id-ID in Asia/Jakarta.
import { formatNumber } from '../../common/format.ts';

const TIME_ZONE = 'Asia/Jakarta';

/** An Intl formatter made on first use (a screen without dates never sets up their locale data). */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const DAY = { timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' } as const;
const CLOCK = { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit' } as const;
const date = onFirstUse(() => new Intl.DateTimeFormat('id-ID', DAY));
const dateTime = onFirstUse(() => new Intl.DateTimeFormat('id-ID', { ...DAY, ...CLOCK }));
const time = onFirstUse(() => new Intl.DateTimeFormat('id-ID', CLOCK));

export { formatMegabytes, formatNumber, formatRupiah } from '../../common/format.ts';

/** A figure from the server, or '-' when it could not be read (never a false zero). */
export function formatFigure(value: number | undefined): string {
  return value === undefined ? '-' : formatNumber(value);
}

/** `done` of `total` as a whole percent, rounded down: 499 of 500 is 99%; only all of it is 100%. */
export function percentDone(done: number, total: number): number {
  return total > 0 ? Math.floor((done / total) * 100) : 0;
}

function parse(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const parsed = value instanceof Date ? value : new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** '5 Jan 2025'; '-' when there is no date. */
export function formatDate(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? date().format(parsed) : '-';
}

/** '5 Jan 2025, 14.30'; '-' when there is no date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? dateTime().format(parsed) : '-';
}

/** '14.30' (Asia/Jakarta); '-' when there is no date. */
export function formatTime(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? time().format(parsed) : '-';
}
