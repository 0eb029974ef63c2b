// The one number and money formatter (id-ID, through Intl), for the screens and for the texts the
// server writes (ledger descriptions, messages): '1.000', 'Rp30.000', '9,29 MB'.

let numberFormat: Intl.NumberFormat | undefined;
let rupiahFormat: Intl.NumberFormat | undefined;
let megabyteFormat: Intl.NumberFormat | undefined;

/** 1234567 -> '1.234.567'; null and undefined -> '0'. */
export function formatNumber(value: number | null | undefined): string {
  numberFormat ??= new Intl.NumberFormat('id-ID');
  return numberFormat.format(value ?? 0);
}

/** A file size in MB with two decimals: 9740000 -> '9,29 MB'. */
export function formatMegabytes(bytes: number): string {
  megabyteFormat ??= new Intl.NumberFormat('id-ID', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${megabyteFormat.format(bytes / 1024 / 1024)} MB`;
}

/** 30000 -> 'Rp30.000' (Intl puts a no-break space after Rp; SPEC writes it without). */
export function formatRupiah(value: number | string | null | undefined): string {
  rupiahFormat ??= new Intl.NumberFormat('id-ID', {
    style: 'currency',
    currency: 'IDR',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const amount = Number(value ?? 0);
  return rupiahFormat.format(Number.isFinite(amount) ? amount : 0).replace(/\s/g, '');
}
