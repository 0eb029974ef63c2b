// What a WhatsApp error code (the Cloud API's, and the two WhatsApp gives a gateway device) means
// for Sebar: what happens to the number (retry it, count it as failed or as having no WhatsApp),
// what the engine does (go on, pause, stop), and the words the admin (`meaning`) and the client
// (`reason`) read.
import type { NumberStatus } from './blast-rules.ts';

/**
 * retry: transient, the number is sent again later; failed / no_wa: final for the number;
 * hold: its template is paused, the number waits until Meta approves it again;
 * pause: the sender is restricted, sending waits; stop: the credentials are wrong, the admin acts.
 */
export type ErrorHandling = 'retry' | 'failed' | 'no_wa' | 'hold' | 'pause' | 'stop';

export interface ErrorMeaning {
  handling: ErrorHandling;
  /** For the admin's queue screen. */
  meaning: string;
  /** For the client, beside the number. */
  reason: string;
}

/**
 * A reported error code as Sebar keeps it: an integer that fits the database's 32-bit column, or
 * null when the report gives none (a missing code, null, a fraction, text or a number too large).
 */
export function errorCodeOf(raw: unknown): number | null {
  const code =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && raw.trim() !== ''
        ? Number(raw)
        : NaN;
  return Number.isInteger(code) && Math.abs(code) <= 2 ** 31 - 1 ? code : null;
}

const SENDER_PROBLEM = 'Pengiriman dari nomor pengirim sedang dibatasi; akan dicoba lagi';
const ACCOUNT_PROBLEM =
  'Pengiriman tertunda karena pengaturan akun WhatsApp; admin sedang menanganinya';
const PASSING_PROBLEM = 'Gangguan sementara di WhatsApp; akan dicoba lagi';

/** The admin acts: the account, its token or the app's permissions must be put right first. */
const accountStop = (meaning: string): ErrorMeaning => ({
  handling: 'stop',
  meaning,
  reason: ACCOUNT_PROBLEM,
});
const NO_PERMISSION = accountStop(
  'Aplikasi tidak diizinkan mengirim: izinnya belum diberikan atau sudah dicabut',
);

const CODES: Record<number, ErrorMeaning> = {
  131026: {
    handling: 'no_wa',
    meaning: 'Tidak terkirim: nomor tidak terdaftar di WhatsApp atau tidak dapat menerima pesan',
    reason: 'Nomor tidak terdaftar di WhatsApp atau tidak dapat menerima pesan',
  },
  131047: {
    handling: 'failed',
    meaning: 'Lebih dari 24 jam sejak penerima terakhir membalas',
    reason: 'Penerima belum membalas dalam 24 jam terakhir',
  },
  131049: {
    handling: 'failed',
    meaning: 'Ditahan Meta untuk menjaga keterlibatan penerima (terlalu banyak pesan marketing)',
    reason: 'WhatsApp menahan pesan ini agar penerima tidak menerima terlalu banyak promosi',
  },
  131050: {
    handling: 'failed',
    meaning: 'Penerima berhenti menerima pesan marketing dari bisnis ini',
    reason: 'Penerima memilih berhenti menerima pesan promosi',
  },
  131051: {
    handling: 'failed',
    meaning: 'Jenis pesan tidak didukung',
    reason: 'Jenis pesan tidak didukung',
  },
  131053: {
    handling: 'failed',
    meaning: 'Media gagal diunggah atau dibaca WhatsApp',
    reason: 'Gambar tidak dapat dikirim',
  },
  132000: {
    handling: 'failed',
    meaning: 'Jumlah parameter template tidak sesuai',
    reason: 'Isi pesan tidak sesuai template',
  },
  132001: {
    handling: 'failed',
    meaning: 'Template tidak ada atau belum disetujui untuk bahasa ini',
    reason: 'Template pesan tidak tersedia',
  },
  132015: {
    handling: 'hold',
    meaning:
      'Template dijeda Meta karena kualitasnya rendah; nomornya menunggu template disetujui lagi',
    reason: 'Template pesan sedang dijeda WhatsApp; dikirim setelah disetujui kembali',
  },
  132016: {
    handling: 'failed',
    meaning: 'Template dinonaktifkan Meta karena berulang kali dijeda',
    reason: 'Template pesan dinonaktifkan WhatsApp',
  },
  132012: {
    handling: 'failed',
    meaning: 'Format parameter template tidak sesuai',
    reason: 'Isi pesan tidak sesuai template',
  },
  132018: {
    handling: 'failed',
    meaning: 'Parameter template berisi baris baru, tab atau lebih dari 4 spasi berurutan',
    reason: 'Isi pesan tidak sesuai template',
  },
  130429: {
    handling: 'retry',
    meaning: 'Batas kecepatan kirim nomor pengirim tercapai',
    reason: 'Menunggu giliran kirim',
  },
  131056: {
    handling: 'retry',
    meaning: 'Terlalu banyak pesan ke penerima yang sama dalam waktu singkat',
    reason: 'Menunggu giliran kirim',
  },
  131000: {
    handling: 'retry',
    meaning: 'Kesalahan tak terduga di WhatsApp',
    reason: PASSING_PROBLEM,
  },
  131016: {
    handling: 'retry',
    meaning: 'Layanan WhatsApp sedang kelebihan beban',
    reason: PASSING_PROBLEM,
  },
  133004: {
    handling: 'retry',
    meaning: 'Server WhatsApp untuk sementara tidak tersedia',
    reason: PASSING_PROBLEM,
  },
  4: {
    handling: 'retry',
    meaning: 'Batas panggilan API aplikasi tercapai',
    reason: 'Menunggu giliran kirim',
  },
  80007: {
    handling: 'retry',
    meaning: 'Batas kecepatan akun WhatsApp Business tercapai',
    reason: 'Menunggu giliran kirim',
  },
  100: {
    handling: 'failed',
    meaning: 'Permintaan ke WhatsApp berisi parameter yang tidak valid',
    reason: 'Pesan ditolak WhatsApp',
  },
  131057: {
    handling: 'pause',
    meaning: 'Akun WhatsApp Business sedang dalam pemeliharaan',
    reason: SENDER_PROBLEM,
  },
  368: {
    handling: 'pause',
    meaning: 'Akun pengirim diblokir sementara karena pelanggaran kebijakan',
    reason: SENDER_PROBLEM,
  },
  131048: {
    handling: 'pause',
    meaning: 'Batas spam tercapai: pengiriman dari nomor ini dibatasi',
    reason: SENDER_PROBLEM,
  },
  // WhatsApp's refusals of a gateway device, as WAHA passes them on ("server returned error
  // 463"): the device is held and the number goes to another one.
  463: {
    handling: 'retry',
    meaning: 'WhatsApp membatasi perangkat gateway menghubungi nomor baru (reachout timelock)',
    reason: 'Menunggu perangkat pengirim lain; akan dicoba lagi',
  },
  475: {
    handling: 'retry',
    meaning: 'WhatsApp membatasi jumlah pesan perangkat gateway (message capping)',
    reason: 'Menunggu perangkat pengirim lain; akan dicoba lagi',
  },
  190: accountStop('Access token tidak valid atau sudah kedaluwarsa'),
  0: accountStop('Access token tidak dapat diautentikasi (AuthException)'),
  3: NO_PERMISSION,
  10: NO_PERMISSION,
  131005: NO_PERMISSION,
  131031: accountStop('Akun WhatsApp Business dikunci Meta'),
  131042: accountStop('Ada masalah pembayaran pada akun WhatsApp Business'),
  131045: accountStop('Nomor pengirim belum terdaftar dengan benar (sertifikat tidak sesuai)'),
  133010: accountStop('Nomor pengirim belum terdaftar di Cloud API'),
};

const TRANSIENT: ErrorMeaning = {
  handling: 'retry',
  meaning: 'WhatsApp tidak menjawab atau sedang gangguan',
  reason: 'Gangguan sementara di WhatsApp; akan dicoba lagi',
};

/**
 * The meaning of Meta's error `code` (null: no answer, a timeout or an HTTP error without one).
 * A permission code (200-299) stops the engine; a 13xxxx code not listed is final for the number;
 * anything else unknown is retried.
 */
export function errorMeaning(code: number | null): ErrorMeaning {
  if (code !== null && CODES[code]) return CODES[code];
  if (code !== null && code >= 200 && code < 300) return NO_PERMISSION;
  if (code !== null && code >= 130000 && code < 140000) {
    return {
      handling: 'failed',
      meaning: `Ditolak WhatsApp (kode ${code})`,
      reason: 'Pesan ditolak WhatsApp',
    };
  }
  return TRANSIENT;
}

/** Whether an error halts the engine: a restricted sender pauses it, a bad token stops it. */
export const haltsEngine = (code: number | null): boolean =>
  code !== null && ['pause', 'stop'].includes(errorMeaning(code).handling);

/** Why a number failed for good after errors that are retried (or that hold it). */
export const GIVEN_UP =
  'Tidak terkirim: WhatsApp tetap menolak atau tidak menjawab setelah beberapa kali dicoba';

/**
 * What the client reads beside a number whose last error was `code`: the code's reason while the
 * number may still go; once it has failed, an error that would have been retried says the number
 * was given up, not that it will be tried again.
 */
export function numberReason(code: number, failed: boolean): string {
  const { handling, reason } = errorMeaning(code);
  return failed && handling !== 'failed' && handling !== 'no_wa' ? GIVEN_UP : reason;
}

/** The number's status once its message failed with `code`. */
export function failedStatus(code: number | null): Extract<NumberStatus, 'failed' | 'no_wa'> {
  return errorMeaning(code).handling === 'no_wa' ? 'no_wa' : 'failed';
}
