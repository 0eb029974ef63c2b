// The top-up points limit: one number and one message, shared by the form and the server.
import { describe, expect, it } from 'vitest';
import {
  CreatePointRequestSchema,
  MAX_BALANCE,
  MAX_BALANCE_MESSAGE,
  TOPUP_MAX_MESSAGE,
  TOPUP_MAX_POINTS,
  TOPUP_POSITIVE_MESSAGE,
  typedPointsProblem,
  TOPUP_INTEGER_MESSAGE,
  TOPUP_REQUIRED_MESSAGE,
  transactionLabel,
} from './points.ts';

const request = (points_requested: number) => ({
  points_requested,
  amount_paid: points_requested * 500,
  payment_proof_url: null,
});

describe('top-up points limit', () => {
  it('is 1.000.000 points, and its message says so', () => {
    expect(TOPUP_MAX_POINTS).toBe(1_000_000);
    expect(TOPUP_MAX_MESSAGE).toBe('Jumlah poin maksimal 1.000.000 per request');
    expect(TOPUP_MAX_MESSAGE).toContain(new Intl.NumberFormat('id-ID').format(TOPUP_MAX_POINTS));
  });

  it('the schema accepts the maximum and refuses one more with the message', () => {
    expect(CreatePointRequestSchema.safeParse(request(TOPUP_MAX_POINTS)).success).toBe(true);
    const over = CreatePointRequestSchema.safeParse(request(TOPUP_MAX_POINTS + 1));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe(TOPUP_MAX_MESSAGE);
  });

  it('the schema names a fraction, and a number past 2^53, for what they are', () => {
    const problem = (points: unknown) =>
      CreatePointRequestSchema.safeParse(request(points as number)).error?.issues[0]?.message;
    expect(problem(1.5)).toBe(TOPUP_INTEGER_MESSAGE);
    expect(problem(2 ** 60)).toBe(TOPUP_MAX_MESSAGE);
    expect(problem(undefined)).toBe(TOPUP_REQUIRED_MESSAGE);
    expect(problem(0)).toBe(TOPUP_POSITIVE_MESSAGE);
  });

  it("the form's check as typed: a fraction, then the maximum", () => {
    expect(typedPointsProblem(1.5)).toBe(TOPUP_INTEGER_MESSAGE);
    expect(typedPointsProblem(0)).toBeNull();
    expect(typedPointsProblem(Number.NaN)).toBeNull();
    expect(typedPointsProblem(1)).toBeNull();
    expect(typedPointsProblem(TOPUP_MAX_POINTS)).toBeNull();
    expect(typedPointsProblem(TOPUP_MAX_POINTS + 1)).toBe(TOPUP_MAX_MESSAGE);
    expect(typedPointsProblem(5_000_000.5)).toBe(TOPUP_INTEGER_MESSAGE);
  });
});

describe('transactionLabel', () => {
  it("keeps SPEC's labels and calls a refund taken back a correction", () => {
    expect(transactionLabel({ type: 'topup', delta: 100 })).toBe('Top Up');
    expect(transactionLabel({ type: 'usage', delta: -4 })).toBe('Penggunaan');
    expect(transactionLabel({ type: 'refund', delta: 2 })).toBe('Refund');
    expect(transactionLabel({ type: 'adjustment', delta: -3 })).toBe('Penyesuaian Admin');
    expect(transactionLabel({ type: 'refund', delta: -2 })).toBe('Koreksi Refund');
  });
});

describe('the balance limit', () => {
  it('is a round figure JavaScript holds exactly, and its message names it', () => {
    expect(MAX_BALANCE).toBe(10 ** 15);
    expect(Number.isSafeInteger(MAX_BALANCE * 9)).toBe(true);
    expect(MAX_BALANCE_MESSAGE).toContain(new Intl.NumberFormat('id-ID').format(MAX_BALANCE));
  });
});
