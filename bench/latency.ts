/** Latency samples in milliseconds, summarised as the table reports them. */
export interface Latency {
  p50Ms: number;
  p99Ms: number;
  count: number;
}

/** The nearest-rank percentiles of the samples: p50 is a sample actually seen, never an average of two. */
export function latencyOf(samplesMs: readonly number[]): Latency {
  if (samplesMs.length === 0) throw new Error('no samples to summarise');
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), count: sorted.length };
}

function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** How many times slower the subject's median is than the baseline's. */
export function ratioOfMedians(subject: Latency, baseline: Latency): number {
  return subject.p50Ms / baseline.p50Ms;
}
