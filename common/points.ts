// Top-up requests and the points ledger as clients and admins see them.
import { text } from './text.ts';
import { z } from './zod.ts';
import { pageSchema } from './pagination.ts';

export const POINT_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PointRequestStatus = (typeof POINT_REQUEST_STATUSES)[number];
/** The one word for each status, on the admin's and the client's screens alike. */
export const POINT_REQUEST_LABELS: Record<PointRequestStatus, string> = {
  pending: 'Menunggu',
  approved: 'Disetujui',
  rejected: 'Ditolak',
};

/**
 * The most points one balance may hold, on both engines: a round figure that JavaScript numbers
 * and 64-bit integer columns hold exactly, with room left for sums of a few balances.
 */
export const MAX_BALANCE = 1_000_000_000_000_000;
export const MAX_BALANCE_MESSAGE = 'Saldo poin maksimal 1.000.000.000.000.000 poin';

export const TOPUP_REQUIRED_MESSAGE = 'Mohon isi semua field yang diperlukan';
export const TOPUP_POSITIVE_MESSAGE = 'Jumlah poin harus lebih dari 0';
/** The most points one top-up request may ask for (SPEC and DESIGN name none: our decision). */
export const TOPUP_MAX_POINTS = 1_000_000;
export const TOPUP_MAX_MESSAGE = 'Jumlah poin maksimal 1.000.000 per request';

export const TOPUP_INTEGER_MESSAGE = 'Jumlah poin harus bilangan bulat';

/**
 * What the top-up form says of typed points as soon as they are typed, before any price: a
 * fraction, or more than one request may ask. Null otherwise (an empty or non-positive value is
 * said on submit, in SPEC's words).
 */
export function typedPointsProblem(points: number): string | null {
  if (Number.isFinite(points) && !Number.isInteger(points)) return TOPUP_INTEGER_MESSAGE;
  if (points > TOPUP_MAX_POINTS) return TOPUP_MAX_MESSAGE;
  return null;
}

export const CreatePointRequestSchema = z.strictObject({
  points_requested: z
    .int({
      error: (issue) =>
        issue.code === 'too_big'
          ? TOPUP_MAX_MESSAGE
          : issue.expected === 'int'
            ? TOPUP_INTEGER_MESSAGE
            : TOPUP_REQUIRED_MESSAGE,
    })
    .min(1, TOPUP_POSITIVE_MESSAGE)
    .max(TOPUP_MAX_POINTS, TOPUP_MAX_MESSAGE),
  amount_paid: z
    .number(TOPUP_REQUIRED_MESSAGE)
    .min(0, 'Jumlah bayar tidak boleh negatif')
    .max(1e12, 'Jumlah bayar maksimal Rp1.000.000.000.000'),
  payment_proof_url: text(2000, 'URL bukti transfer terlalu panjang')
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), {
      message: 'URL bukti transfer harus diawali http:// atau https://',
    })
    .nullable()
    .default(null)
    .transform((v) => (v === '' ? null : v)),
});
export type CreatePointRequest = z.infer<typeof CreatePointRequestSchema>;

export const PointRequestSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  points_requested: z.number(),
  amount_paid: z.number(),
  status: z.enum(POINT_REQUEST_STATUSES),
  created_at: z.string(),
  processed_at: z.string().nullable(),
  payment_proof_url: z.string().nullable(),
});
export type PointRequest = z.infer<typeof PointRequestSchema>;

export const PointRequestSummarySchema = z.object({
  pending: z.number(),
  approved: z.number(),
  rejected: z.number(),
  approved_points: z.number(),
});
export type PointRequestSummary = z.infer<typeof PointRequestSummarySchema>;

export const PointRequestPageSchema = pageSchema(PointRequestSchema, PointRequestSummarySchema);
export type PointRequestPage = z.infer<typeof PointRequestPageSchema>;

export const PointRequestQuerySchema = z.object({
  status: z.enum(POINT_REQUEST_STATUSES).optional(),
});

export const TRANSACTION_TYPES = ['topup', 'usage', 'refund', 'adjustment'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_LABELS: Record<TransactionType, string> = {
  topup: 'Top Up',
  usage: 'Penggunaan',
  refund: 'Refund',
  adjustment: 'Penyesuaian Admin',
};

export const REFUND_CORRECTION_LABEL = 'Koreksi Refund';

/** The label of an entry: SPEC's, but a refund taken back (a re-edited result) is a correction. */
export function transactionLabel(entry: { type: TransactionType; delta: number }): string {
  return entry.type === 'refund' && entry.delta < 0
    ? REFUND_CORRECTION_LABEL
    : TRANSACTION_LABELS[entry.type];
}

/**
 * A ledger entry. `amount` follows SPEC (usage positive and subtracted, topup and refund added);
 * `delta` is the signed change and `balance_after` the balance it left, so an adjustment or a
 * refund taken back on re-edit still walks to the right running balance.
 */
export const TransactionSchema = z.object({
  id: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  amount: z.number(),
  delta: z.number(),
  balance_after: z.number(),
  description: z.string(),
  /** The blast the entry charged or refunded; null for top-ups and adjustments. */
  blast_id: z.string().nullable(),
  created_at: z.string(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const TransactionSummarySchema = z.object({
  total_topup: z.number(),
  total_usage: z.number(),
  total_refund: z.number(),
  total_adjustment: z.number(),
  count: z.number(),
  current_points: z.number(),
});
export type TransactionSummary = z.infer<typeof TransactionSummarySchema>;

export const TransactionPageSchema = pageSchema(TransactionSchema, TransactionSummarySchema);
export type TransactionPage = z.infer<typeof TransactionPageSchema>;
