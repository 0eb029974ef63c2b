// The one money and date formatter: Rupiah without decimals, id-ID dates in Asia/Jakarta.
const TIME_ZONE = 'Asia/Jakarta';

const rupiah = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const number = new Intl.NumberFormat('id-ID');
const date = new Intl.DateTimeFormat('id-ID', {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const dateTime = new Intl.DateTimeFormat('id-ID', {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 30000 -> 'Rp30.000' (Intl puts a no-break space after Rp; SPEC writes it without). */
export function formatRupiah(value: number | string | null | undefined): string {
  const amount = Number(value ?? 0);
  return rupiah.format(Number.isFinite(amount) ? amount : 0).replace(/\s/g, '');
}

/** 1234567 -> '1.234.567'. */
export function formatNumber(value: number | null | undefined): string {
  return number.format(value ?? 0);
}

function parse(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const parsed = value instanceof Date ? value : new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** '5 Jan 2025'; '-' when there is no date. */
export function formatDate(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? date.format(parsed) : '-';
}

/** '5 Jan 2025, 14.30'; '-' when there is no date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const parsed = parse(value);
  return parsed ? dateTime.format(parsed) : '-';
}
