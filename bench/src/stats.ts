// Summaries of timing samples: median, min, max, p95, and a least-squares slope for the scale figures.

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  p95: number;
  mean: number;
}

/** Nearest-rank percentile of sorted samples (p in 0..100). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? Number.NaN : n % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return {
    n,
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted[n - 1] ?? Number.NaN,
    p95: percentile(sorted, 95),
    mean: n === 0 ? Number.NaN : sorted.reduce((a, b) => a + b, 0) / n,
  };
}

export function p50(samples: readonly number[]): number {
  return summarize(samples).median;
}

/** Slope of the least-squares line through (x, y) points. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den === 0 ? Number.NaN : num / den;
}

/** Collects named samples, keeping insertion order of names for the report. */
export class Samples {
  readonly data = new Map<string, number[]>();

  add(name: string, value: number): void {
    const list = this.data.get(name);
    if (list) list.push(value);
    else this.data.set(name, [value]);
  }

  get(name: string): number[] {
    return this.data.get(name) ?? [];
  }

  toJSON(): Record<string, number[]> {
    return Object.fromEntries(this.data);
  }
}
