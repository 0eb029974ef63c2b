// Blast requests: the client's payload, the admin's results and per-number statuses.
import { NOT_BLANK } from './text.ts';
import { z } from './zod.ts';
import { MAX_NUMBERS_PER_BLAST } from './phone.ts';
import { pageSchema } from './pagination.ts';
import { DELIVERY_STATES } from './delivery-states.ts';
import { DELIVERY_MODES } from './delivery.ts';
import {
  BLAST_MESSAGES,
  BLAST_STATUSES,
  MAX_MESSAGE_LENGTH,
  NUMBER_STATUSES,
  type NumberStatus,
} from './blast-rules.ts';

export * from './blast-rules.ts';

/**
 * A new blast. Manual mode sends `message`; Cloud API mode sends `template_id` with `parameters`
 * (by placeholder name, or a list for `{{1}}`, `{{2}}` …) and the stored message is the rendered
 * text. Which of the two a blast needs is the mode's rule (blasts.service.ts).
 */
export const CreateBlastSchema = z.strictObject({
  message: z
    .string(BLAST_MESSAGES.emptyMessage)
    .max(MAX_MESSAGE_LENGTH, `Pesan maksimal ${MAX_MESSAGE_LENGTH} karakter`)
    .regex(NOT_BLANK, BLAST_MESSAGES.emptyMessage)
    .trim()
    .optional(),
  template_id: z.string('Template tidak valid').max(100, 'Template tidak valid').optional(),
  parameters: z
    .union(
      [
        z.record(z.string().max(100), z.string('Parameter harus berupa teks')),
        z.array(z.string('Parameter harus berupa teks')).max(100),
      ],
      'Parameter template tidak valid',
    )
    .optional(),
  // No length cap per entry: an overlong entry is one more invalid number (SPEC's message counts
  // it); the 1 MB body limit bounds the work.
  target_numbers: z
    .array(z.string(), BLAST_MESSAGES.emptyNumbers)
    .min(1, BLAST_MESSAGES.emptyNumbers)
    .max(MAX_NUMBERS_PER_BLAST, BLAST_MESSAGES.tooMany),
  image_url: z.string().max(300).nullable().default(null),
});
export type CreateBlast = z.infer<typeof CreateBlastSchema>;

const count = z
  .int('Jumlah harus bilangan bulat')
  .min(0, 'Jumlah tidak boleh negatif')
  .max(MAX_NUMBERS_PER_BLAST);

export const BlastResultSchema = z.strictObject({
  successful_count: count,
  failed_count: count,
  no_wa_count: count,
  admin_notes: z.string().max(5000).nullable().default(null),
});
export type BlastResultInput = z.infer<typeof BlastResultSchema>;

export const NumberStatusesSchema = z.strictObject({
  number_statuses: z.record(
    // Written one way only: '00' or '01' would name the same number as '0' or '1'.
    z.string().regex(/^(0|[1-9]\d{0,2})$/, 'Indeks nomor tidak valid'),
    z.enum(NUMBER_STATUSES, 'Status nomor tidak valid'),
    { error: (issue) => (issue.code === 'invalid_key' ? 'Indeks nomor tidak valid' : undefined) },
  ),
});
export type NumberStatusesInput = z.infer<typeof NumberStatusesSchema>;

/** The template a Cloud API blast sends, with the values of its parameters by name. */
export const BlastTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  /** TEXT, IMAGE …: what the template's header carries; null without a header. */
  header_format: z.string().nullable(),
  parameters: z.record(z.string(), z.string()),
});
export type BlastTemplate = z.infer<typeof BlastTemplateSchema>;

/** A number's delivery through the Cloud API; `reason` is for the client, in Indonesian. */
export const NumberDeliverySchema = z.object({
  state: z.enum(DELIVERY_STATES),
  provider_message_id: z.string().nullable(),
  error_code: z.number().nullable(),
  error_title: z.string().nullable(),
  reason: z.string().nullable(),
  attempts: z.number(),
  queued_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  read_at: z.string().nullable(),
  failed_at: z.string().nullable(),
});
export type NumberDelivery = z.infer<typeof NumberDeliverySchema>;

export const BlastNumberSchema = z.object({
  index: z.number(),
  number: z.string(),
  status: z.enum(NUMBER_STATUSES),
  /** Null in manual mode. */
  delivery: NumberDeliverySchema.nullable(),
});
export type BlastNumber = z.infer<typeof BlastNumberSchema>;

export const BlastSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  message: z.string(),
  image_url: z.string().nullable(),
  target_numbers: z.array(z.string()),
  total_numbers: z.number(),
  status: z.enum(BLAST_STATUSES),
  created_at: z.string(),
  processed_at: z.string().nullable(),
  successful_count: z.number(),
  failed_count: z.number(),
  no_wa_count: z.number(),
  refund_points: z.number(),
  points_used: z.number(),
  admin_notes: z.string().nullable(),
  results: z.object({ successful_count: z.number(), failed_count: z.number() }).nullable(),
  number_statuses: z.record(z.string(), z.enum(NUMBER_STATUSES)),
  delivery_mode: z.enum(DELIVERY_MODES),
  template: BlastTemplateSchema.nullable(),
  /** The client's numbers left out because they are on the opt-out list (not charged). */
  opted_out_count: z.number(),
});
export type Blast = z.infer<typeof BlastSchema>;

/** One blast as its detail screen reads it: every number with its status and delivery. */
export const BlastDetailSchema = BlastSchema.extend({
  numbers: z.array(BlastNumberSchema),
  /**
   * Why a pending engine-sent blast sends none of its waiting numbers now (the client's words,
   * HOLD_REASONS); null while it is on its way or has nothing left to send.
   */
  held_reason: z.string().nullable(),
  /** When that hold ends by itself; null when it waits for the admin, or when not held. */
  resumes_at: z.string().nullable(),
});
export type BlastDetail = z.infer<typeof BlastDetailSchema>;

export const BlastSummarySchema = z.object({
  pending: z.number(),
  completed: z.number(),
  rejected: z.number(),
  cancelled: z.number(),
  total: z.number(),
  /** completed over all requests, in percent, rounded */
  success_rate: z.number(),
});
export type BlastSummary = z.infer<typeof BlastSummarySchema>;

export const BlastPageSchema = pageSchema(BlastSchema, BlastSummarySchema);
export type BlastPage = z.infer<typeof BlastPageSchema>;

export const BlastQuerySchema = z.object({ status: z.enum(BLAST_STATUSES).optional() });

export const RESULT_SUM_ZERO_MESSAGE = 'Total hasil harus lebih dari 0';

/** Sum rules of the admin result form (SPEC section 5). */
export function resultSumMessage(sum: number, total: number): string {
  if (sum > total) return `Total hasil (${sum}) melebihi total nomor (${total})!`;
  if (sum <= 0) return RESULT_SUM_ZERO_MESSAGE;
  if (sum === total) return 'Total hasil sudah sesuai dengan total nomor';
  return `Sisa ${total - sum} nomor belum diinput`;
}

const RESULT_ORDER = ['success', 'failed', 'no_wa'] as const;
type ResultCounts = Pick<BlastResultInput, 'successful_count' | 'failed_count' | 'no_wa_count'>;

/**
 * The statuses a submitted result leaves (the one rule: the server stores exactly this). Each saved
 * success, failure or no-WA is kept while its count leaves room, earliest first; the other numbers
 * take, in index order, the successes, then failures, then no-WAs still to place, and the rest are
 * pending. With nothing saved yet this is the by-position rule. Expects a sum of counts of at most
 * `saved.length` (the server refuses a larger one first).
 */
export function resultStatuses(
  saved: readonly NumberStatus[],
  counts: ResultCounts,
): NumberStatus[] {
  const room: Record<NumberStatus, number> = {
    success: counts.successful_count,
    failed: counts.failed_count,
    no_wa: counts.no_wa_count,
    pending: 0,
  };
  const kept = saved.map((status) => {
    if (room[status] <= 0) return null;
    room[status] -= 1;
    return status;
  });
  return kept.map((status) => {
    if (status) return status;
    const next = RESULT_ORDER.find((s) => room[s] > 0);
    if (!next) return 'pending';
    room[next] -= 1;
    return next;
  });
}

/**
 * Where the admin's count form starts: a completed blast's saved counts (SPEC: a re-edit prefills
 * them); a pending one's saved statuses, its numbers still pending counted successful (SPEC's
 * default for a new result: all successful).
 */
export function resultFormCounts(
  blast: Pick<Blast, 'status' | 'total_numbers'> & ResultCounts,
): ResultCounts {
  const { successful_count: s, failed_count: f, no_wa_count: n } = blast;
  if (blast.status === 'completed') return { successful_count: s, failed_count: f, no_wa_count: n };
  return { successful_count: blast.total_numbers - f - n, failed_count: f, no_wa_count: n };
}
