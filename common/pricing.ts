// Price tiers and the top-up price rule of SPEC section 5.
import { requiredText } from './text.ts';
import { z } from './zod.ts';

export const PricingTierInputSchema = z
  .strictObject({
    tier_name: requiredText(100, 'Nama tier harus diisi'),
    min_points: z
      .int('Minimum poin harus bilangan bulat')
      .min(1, 'Minimum poin minimal 1')
      .max(1e9),
    max_points: z
      .int('Maksimum poin harus bilangan bulat')
      .min(1, 'Maksimum poin minimal 1')
      .max(1e9),
    price_per_point: z
      .number('Harga per poin harus berupa angka')
      .gt(0, 'Harga per poin harus lebih dari 0')
      .max(1e9),
  })
  .refine((t) => t.min_points <= t.max_points, {
    message: 'Minimum poin tidak boleh lebih besar dari maksimum poin',
    path: ['max_points'],
  });
export type PricingTierInput = z.infer<typeof PricingTierInputSchema>;

export const PricingTierSchema = z.object({
  id: z.string(),
  tier_name: z.string(),
  min_points: z.number(),
  max_points: z.number(),
  price_per_point: z.number(),
  created_at: z.string(),
});
export type PricingTier = z.infer<typeof PricingTierSchema>;

type TierRange = Pick<PricingTier, 'min_points' | 'max_points' | 'price_per_point'>;

/** The tier whose range contains the points, if any (tiers sorted by min_points). */
export function findTier<T extends TierRange>(points: number, tiers: readonly T[]): T | undefined {
  return [...tiers]
    .sort((a, b) => a.min_points - b.min_points)
    .find((t) => points >= t.min_points && points <= t.max_points);
}

/** SPEC: the containing tier's rate; above the highest tier, the last tier's rate; otherwise 0. */
export function computePrice(points: number, tiers: readonly TierRange[]): number {
  if (!Number.isFinite(points) || points <= 0) return 0;
  const sorted = [...tiers].sort((a, b) => a.min_points - b.min_points);
  const tier = findTier(points, sorted);
  if (tier) return Math.round(points * tier.price_per_point);
  const last = sorted.at(-1);
  if (last && points > last.max_points) return Math.round(points * last.price_per_point);
  return 0;
}

/** Tier 'Contoh Total' = max_points times price_per_point. */
export const exampleTotal = (tier: TierRange) => Math.round(tier.max_points * tier.price_per_point);
