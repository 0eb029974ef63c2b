// The blast rules without zod, so the blast form does not download it; blasts.ts re-exports them.
import type { DeliveryMode } from './delivery.ts';
import { formatNumber } from './format.ts';

export const MAX_MESSAGE_LENGTH = 1000;
export const BLAST_STATUSES = ['pending', 'completed', 'rejected', 'cancelled'] as const;
export type BlastStatus = (typeof BLAST_STATUSES)[number];
export const NUMBER_STATUSES = ['pending', 'success', 'failed', 'no_wa'] as const;
export type NumberStatus = (typeof NUMBER_STATUSES)[number];

/** Whether the blast was closed before it was sent out: rejected by the admin or cancelled. */
export const isClosed = (status: BlastStatus): boolean =>
  status === 'rejected' || status === 'cancelled';

/** What a number still pending in a closed blast reads: it was never sent. */
export const NOT_SENT_LABEL = 'Tidak dikirim';
export const neverSent = (blastStatus: BlastStatus, status: NumberStatus): boolean =>
  status === 'pending' && isClosed(blastStatus);

/** Why an engine's number was never sent: the blast was closed while it waited. */
const CLOSED_BEFORE_SENDING: Record<string, string> = {
  rejected: 'Blast ditolak admin sebelum nomor ini dikirim',
  cancelled: 'Blast dibatalkan sebelum nomor ini dikirim',
};

/**
 * Why a number of a blast with this status is not to be sent (it was rejected or cancelled);
 * null while the blast may still send it.
 */
export const closedBeforeSending = (status: string): string | null =>
  CLOSED_BEFORE_SENDING[status] ?? null;

/** Why a queued number fails when its recipient opts out before it is sent. */
export const OPTED_OUT_BEFORE_SENDING = 'Penerima berhenti berlangganan sebelum nomor ini dikirim';

/**
 * The reasons of numbers withdrawn before they were sent (a reject, a cancel, an opt-out): they
 * count as failed for the client's refund, but are no failures of delivery.
 */
export const WITHDRAWN_REASONS: readonly string[] = [
  ...Object.values(CLOSED_BEFORE_SENDING),
  OPTED_OUT_BEFORE_SENDING,
];

/** Whether an engine's number failed unsent, withdrawn: the screens say 'Tidak dikirim'. */
export const withdrawnUnsent = (delivery: { state: string; reason: string | null } | null) =>
  delivery?.state === 'failed' && WITHDRAWN_REASONS.includes(delivery.reason ?? '');

/**
 * Whether Sebar's delivery engine sends a blast made in `mode` (Cloud API or gateway): its numbers
 * are queued at creation and their results come from the engine, never typed by the admin.
 */
export const sentByEngine = (mode: DeliveryMode): boolean => mode !== 'manual';

/** The channel an engine-sent blast goes through, as the screens and messages name it. */
export const CHANNEL_NAMES: Record<Exclude<DeliveryMode, 'manual'>, string> = {
  cloud_api: 'WhatsApp Cloud API',
  gateway: 'gateway WhatsApp',
};

/** The channel's name for a blast's mode; null for a manual blast. */
export const channelName = (mode: DeliveryMode): string | null =>
  mode === 'manual' ? null : CHANNEL_NAMES[mode];

/**
 * Why a save of the delivery settings that empties what a channel needs is refused: its blasts
 * still have numbers to send, which would wait for ever.
 */
export const strandingMessage = (mode: Exclude<DeliveryMode, 'manual'>, unsent: number) =>
  `${formatNumber(unsent)} nomor blast lewat ${CHANNEL_NAMES[mode]} belum terkirim. Tunggu sampai terkirim atau batalkan blast tersebut sebelum mengosongkan pengaturannya.`;

/** Why removing the gateway's last device is refused: its blasts' numbers would wait for ever. */
export const lastDeviceMessage = (unsent: number) =>
  `${formatNumber(unsent)} nomor blast lewat ${CHANNEL_NAMES.gateway} belum terkirim. Tambahkan perangkat lain atau batalkan blast tersebut sebelum menghapus perangkat terakhir.`;

/** Why an engine's pending blast sends nothing now, in its client's words (decision 264). */
export const HOLD_REASONS = {
  closedHours: 'Di luar jam kirim',
  noDevice: 'Perangkat pengirim sedang tidak tersambung',
  devicePaused: 'Perangkat pengirim sedang dijeda sementara',
  deviceLimit: 'Batas kirim harian perangkat pengirim sudah tercapai',
  senderPaused: 'WhatsApp membatasi nomor pengirim untuk sementara',
  senderStopped: 'Pengiriman terhenti karena kendala pada akun WhatsApp pengirim',
  recipientLimit: 'Batas penerima harian nomor pengirim sudah tercapai',
} as const;

/**
 * A held blast's line: why it waits and when it goes on by itself; when only the admin ends the
 * hold, the client reads that the admin is on it and the admin where to act (`time` formats).
 */
export const holdMessage = (
  hold: { held_reason: string; resumes_at: string | null },
  time: (at: string) => string,
  reader: 'client' | 'admin' = 'client',
): string => {
  if (hold.resumes_at !== null)
    return `${hold.held_reason}: pengiriman dilanjutkan ${time(hold.resumes_at)}.`;
  return reader === 'client'
    ? `${hold.held_reason}: admin sedang menanganinya, pengiriman dilanjutkan setelah itu.`
    : `${hold.held_reason}: tindak lanjuti di menu Pengiriman.`;
};

export const BLAST_MESSAGES = {
  emptyMessage: 'Pesan blast tidak boleh kosong',
  emptyNumbers: 'Daftar nomor telepon tidak boleh kosong',
  tooMany: 'Maksimal 500 nomor kontak per blast',
  tooManyTitle: 'Batas Maksimal Tercapai',
  invalid: (n: number) => `${formatNumber(n)} nomor tidak valid. Mohon perbaiki format nomor`,
  notEnoughTitle: 'Poin Tidak Cukup',
  notEnough: (needed: number, owned: number) =>
    `Anda membutuhkan ${formatNumber(needed)} poin, tetapi hanya memiliki ${formatNumber(owned)} poin`,
  rejected: 'Blast request ini sudah ditolak',
  cancelled: 'Blast request ini sudah dibatalkan',
  notPending: 'Hanya blast yang masih menunggu yang dapat dibatalkan atau ditolak',
  takeBackFailed: 'Poin klien tidak cukup untuk menarik kembali refund. Hasil blast tidak diubah.',
} as const;
