// The figures the bench records, and its arithmetic on measured values.

/** One figure of `npm run bench`: its value, against its baseline and target. */
export interface Figure {
  figure: string;
  engine: 'sqlite' | 'postgres' | 'any';
  value: number | null;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  target: string;
  met: boolean | null;
  note?: string;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The nearest-rank percentile of values sorted in ascending order. */
function percentile(sorted: number[], p: number) {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

/** p50, p95 and p99 of latencies in ms, to two decimals. */
export function latencies(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    p99: round2(percentile(sorted, 99)),
  };
}
