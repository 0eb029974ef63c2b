// One price tier as a button on Top Up: choosing it fills in the tier's minimum points.
import { CheckCircle2, Tags } from 'lucide-react';
import type { PricingTier } from '#common/pricing.ts';
import { cn } from '#client/lib/cn.ts';
import { formatNumber, formatRupiah } from '#client/lib/format.ts';

/** A per-point price may have decimals (SPEC: decimal, IDR); whole prices read as 'Rp600'. */
export const formatPricePerPoint = (price: number) =>
  Number.isInteger(price) ? formatRupiah(price) : `Rp${formatNumber(price)}`;

export function TierButton({
  tier,
  active,
  onSelect,
}: {
  tier: PricingTier;
  active: boolean;
  onSelect: () => void;
}) {
  // Stacked (name, range, price) so a long tier name never runs into the price.
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={active}
      className={cn(
        'flex h-full w-full min-w-0 cursor-pointer flex-col gap-1 rounded-lg border bg-card p-4 text-left transition-colors hover:border-primary/60 hover:bg-primary-soft/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        active && 'border-primary bg-primary-soft/60 ring-1 ring-primary',
      )}
    >
      <span className="flex items-start gap-2">
        <Tags aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span className="min-w-0 flex-1 break-words font-semibold" data-tier-name="">
          {tier.tier_name}
        </span>
        {active && <CheckCircle2 aria-hidden className="size-4 shrink-0 text-primary" />}
      </span>
      <span className="text-sm text-muted-foreground">
        {formatNumber(tier.min_points)} - {formatNumber(tier.max_points)} poin
      </span>
      <span className="mt-auto pt-1 text-base font-bold text-primary" data-tier-price="">
        {formatPricePerPoint(tier.price_per_point)}/poin
      </span>
    </button>
  );
}
