// The one number, money and date formatter (id-ID, through Intl), for the screens and for the
// texts the server writes (ledger descriptions, messages): '1.000', 'Rp30.000', '9,29 MB',
// '5 Jan 2025, 14.30' (dates in Asia/Jakarta).

const NUMBER = new Intl.NumberFormat('id-ID');
const RUPIAH = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const MEGABYTES = new Intl.NumberFormat('id-ID', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

const TIME_ZONE = 'Asia/Jakarta';
const DAY = { timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' } as const;
const CLOCK = { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit' } as const;
const DATE = new Intl.DateTimeFormat('id-ID', DAY);
const DATE_TIME = new Intl.DateTimeFormat('id-ID', { ...DAY, ...CLOCK });
const TIME = new Intl.DateTimeFormat('id-ID', CLOCK);

/** 1234567 -> '1.234.567'; null and undefined -> '0'. */
export function formatNumber(value: number | null | undefined): string {
  return NUMBER.format(value ?? 0);
}

/** A figure from the server, or '-' when it could not be read (never a false zero). */
export function formatFigure(value: number | undefined): string {
  return value === undefined ? '-' : formatNumber(value);
}

/**
 * A file size in MB with two decimals: 9740000 -> '9,29 MB'. A file too small to show in them
 * is '< 0,01 MB', so that it does not read as empty.
 */
export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / 1024 / 1024;
  if (bytes > 0 && megabytes < 0.005) return `< ${MEGABYTES.format(0.01)} MB`;
  return `${MEGABYTES.format(megabytes)} MB`;
}

/** 30000 -> 'Rp30.000' (Intl puts a no-break space after Rp; SPEC writes it without). */
export function formatRupiah(value: number | string | null | undefined): string {
  const amount = Number(value ?? 0);
  return RUPIAH.format(Number.isFinite(amount) ? amount : 0).replace(/\s/g, '');
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
  return parsed ? DATE.format(parsed) : '-';
}

/** '5 Jan 2025, 14.30'; '-' when there is no date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? DATE_TIME.format(parsed) : '-';
}

/** '14.30' (Asia/Jakarta); '-' when there is no date. */
export function formatTime(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? TIME.format(parsed) : '-';
}
