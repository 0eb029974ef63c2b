// The one money and date formatter: Rupiah without decimals, id-ID dates in Asia/Jakarta.
const TIME_ZONE = 'Asia/Jakarta';

/**
 * An Intl formatter made on first use. A page's first Intl object sets up ICU's locale data, a
 * task of 50-100 ms here and several times that on a phone; the shells show only whole numbers at
 * first (written below without Intl), so a screen without dates or fractions never pays it.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const rupiah = onFirstUse(
  () =>
    new Intl.NumberFormat('id-ID', {
      style: 'currency',
      currency: 'IDR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    }),
);
const number = onFirstUse(() => new Intl.NumberFormat('id-ID'));
const DAY = { timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' } as const;
const CLOCK = { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit' } as const;
const date = onFirstUse(() => new Intl.DateTimeFormat('id-ID', DAY));
const dateTime = onFirstUse(() => new Intl.DateTimeFormat('id-ID', { ...DAY, ...CLOCK }));
const time = onFirstUse(() => new Intl.DateTimeFormat('id-ID', CLOCK));

/**
 * A whole number as id-ID's Intl writes it ('1.234.567', '-5'); undefined for what only Intl
 * writes right (fractions, -0, beyond 2^53).
 */
function wholeNumber(value: number): string | undefined {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return undefined;
  const grouped = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, '.');
  return value < 0 ? `-${grouped}` : grouped;
}

/** 30000 -> 'Rp30.000' (Intl puts a no-break space after Rp; SPEC writes it without). */
export function formatRupiah(value: number | string | null | undefined): string {
  const amount = Number(value ?? 0);
  const finite = Number.isFinite(amount) ? amount : 0;
  const whole = wholeNumber(finite);
  if (whole !== undefined) return whole.startsWith('-') ? `-Rp${whole.slice(1)}` : `Rp${whole}`;
  return rupiah().format(finite).replace(/\s/g, '');
}

/** 1234567 -> '1.234.567'. */
export function formatNumber(value: number | null | undefined): string {
  const amount = value ?? 0;
  return wholeNumber(amount) ?? number().format(amount);
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
