// Top Up's request form: points (or a tier), the price it comes to, and an optional proof link.
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2 } from 'lucide-react';
import type { FormEvent } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  CreatePointRequestSchema,
  TOPUP_MAX_POINTS,
  TOPUP_REQUIRED_MESSAGE,
  typedPointsProblem,
  type CreatePointRequest,
} from '#common/points.ts';
import { computePrice, findTier, type PricingTier } from '#common/pricing.ts';
import { z } from '#common/zod.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Input, Textarea } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { toNumber, viaForm } from '#client/lib/form-schema.ts';
import { formatNumber, formatRupiah } from '#client/lib/format.ts';
import { formatPricePerPoint } from '#client/features/pricing/tier-button.tsx';
import { useCreatePointRequest } from './client-api.ts';

// The form holds text; the shared schema checks points and link (the price is computed here).
const TopupFormSchema = viaForm(
  z.object({ points_requested: z.string(), payment_proof_url: z.string() }).transform((form) => ({
    points_requested: toNumber(form.points_requested),
    payment_proof_url: form.payment_proof_url.trim() || null,
  })),
  CreatePointRequestSchema.omit({ amount_paid: true }),
);
type TopupForm = z.input<typeof TopupFormSchema>;
type TopupValues = Omit<CreatePointRequest, 'amount_paid'>;
export type TopupFormApi = UseFormReturn<TopupForm, unknown, TopupValues>;

const EMPTY: TopupForm = { points_requested: '', payment_proof_url: '' };
const PROOF_HINT =
  'Upload gambar bukti transfer ke layanan hosting gambar (mis. imgur) atau Google Drive yang dibagikan publik, lalu tempel link-nya di sini.';

/** The form, and what the typed points come to: the tier that prices them and the total. */
export function useTopupForm(tiers: PricingTier[]) {
  // Only the points field is focused on a refusal (its limit is said beside it); a link is not.
  const form = useForm<TopupForm, unknown, TopupValues>({
    resolver: zodResolver(TopupFormSchema),
    defaultValues: EMPTY,
    shouldFocusError: false,
  });
  const pointsText = useWatch({ control: form.control, name: 'points_requested' });
  const blank = pointsText.trim() === '';
  const points = Number(pointsText);
  // A fraction of a point has no price.
  const priced = !blank && Number.isInteger(points);
  return {
    form,
    blank,
    points,
    // The price exists as soon as whole points are typed (Rp0 when no tier prices them).
    amount: priced ? computePrice(points, tiers) : null,
    tier: priced ? findTier(points, tiers) : undefined,
    choose: (tier: PricingTier) => form.setValue('points_requested', String(tier.min_points)),
  };
}
export type Topup = ReturnType<typeof useTopupForm>;

function TierNote({ tier }: { tier: PricingTier }) {
  return (
    <div
      id="topup-tier-note"
      className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg bg-primary-soft px-3 py-2 text-sm font-medium text-primary"
    >
      <p className="flex items-center gap-2" data-tier-note="">
        <CheckCircle2 aria-hidden className="size-4 shrink-0" />
        Menggunakan tier: {formatNumber(tier.min_points)} - {formatNumber(tier.max_points)} poin
      </p>
      <p className="font-semibold" data-tier-note-price="">
        {tier.tier_name} · {formatPricePerPoint(tier.price_per_point)}/poin
      </p>
    </div>
  );
}

function useSubmitTopup({ form, amount }: Topup) {
  const createRequest = useCreatePointRequest();
  const submit = async (values: TopupValues) => {
    if (createRequest.isPending || amount === null) return;
    try {
      await createRequest.mutateAsync({ ...values, amount_paid: amount });
      toastSuccess(
        `Request top-up ${formatNumber(values.points_requested)} poin berhasil dibuat. Menunggu approval admin.`,
        'Request Berhasil',
      );
      // The emptied form disables its button: the keyboard goes on from the first field (asked
      // before the reset, which forgets the fields until they render again).
      form.setFocus('points_requested');
      form.reset(EMPTY);
    } catch (failure) {
      toastError(errorMessage(failure, 'Gagal membuat request top-up'));
    }
  };
  const refused = (errors: Partial<Record<keyof TopupForm, { message?: string }>>) => {
    const points = errors.points_requested?.message;
    // Back to the field, where the limit is also said, rather than left at the button below.
    if (points && points !== TOPUP_REQUIRED_MESSAGE) form.setFocus('points_requested');
    // A refused link is said under its field too, which takes the focus, once the toast is gone.
    else if (!points && errors.payment_proof_url) form.setFocus('payment_proof_url');
    toastError(points ?? errors.payment_proof_url?.message);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.handleSubmit(submit, refused)(event);
  return { onSubmit, sending: createRequest.isPending };
}

export function TopupRequestForm({ topup, tiers }: { topup: Topup; tiers: PricingTier[] }) {
  const { form, blank, points, amount, tier } = topup;
  const { onSubmit, sending } = useSubmitTopup(topup);
  // Said as soon as it is typed, not only on submit: the price of such a request means nothing.
  const pointsError = (!blank && typedPointsProblem(points)) || undefined;
  const proofError = form.formState.errors.payment_proof_url?.message;
  const pointsDescribedBy =
    [describedBy('topup-points', pointsError), tier ? 'topup-tier-note' : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Form top-up">
      <Field id="topup-points" label="Jumlah Poin" required error={pointsError}>
        <Input
          id="topup-points"
          type="number"
          inputMode="numeric"
          min={1}
          max={TOPUP_MAX_POINTS}
          step={1}
          required
          placeholder="Contoh: 100"
          aria-invalid={pointsError ? true : undefined}
          aria-describedby={pointsDescribedBy}
          {...form.register('points_requested')}
        />
      </Field>
      <Field id="topup-amount" label="Total Harga">
        <Input
          id="topup-amount"
          readOnly
          placeholder="Harga akan dihitung otomatis"
          value={amount === null ? '' : formatRupiah(amount)}
          className={amount === null ? undefined : 'font-semibold'}
        />
      </Field>
      {tier && <TierNote tier={tier} />}
      {!tier && amount === 0 && points > 0 && tiers.length > 0 && (
        <Alert variant="warning">Jumlah poin ini belum ada di daftar harga.</Alert>
      )}
      <Field
        id="topup-proof"
        label="URL Bukti Transfer (Opsional)"
        hint={PROOF_HINT}
        error={proofError}
      >
        <Textarea
          id="topup-proof"
          rows={3}
          placeholder="https://..."
          aria-invalid={proofError ? true : undefined}
          aria-describedby={describedBy('topup-proof', proofError, PROOF_HINT)}
          {...form.register('payment_proof_url')}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" loading={sending} disabled={blank}>
        {sending ? 'Memproses...' : 'Buat Request Top-Up'}
      </Button>
    </form>
  );
}
