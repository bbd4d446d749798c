/** A row of the bench's table: what was measured, against what, and whether it met its target. */
import { ratioOfMedians, type Latency } from './latency.ts';

export interface Target {
  /** As the table prints it, e.g. `≤ 3×`. */
  text: string;
  /** The figure the target is about, and the most it may be (the least, when `atLeast`). */
  value: number;
  limit: number;
  atLeast?: boolean;
}

export interface BenchRow {
  id: string;
  subject: string;
  latency: Latency;
  baseline: { name: string; latency: Latency } | null;
  /** The subject's p50 over the baseline's, when there is a baseline. */
  ratio: number | null;
  /** Null for a row kept for reference only: measured and printed, judged against nothing. */
  target: Target | null;
  /** What else the row tells (throughput, error counts). */
  note?: string;
  /** Measured under load for a fixed time (autocannon), not request by request: n counts its requests. */
  underLoad?: boolean;
  /** The timed samples the row asked for, when not the sequential rows' count (row l's moves). */
  requested?: number;
}

export function meetsTarget({ value, limit, atLeast = false }: Target): boolean {
  return atLeast ? value >= limit : value <= limit;
}

/** A subject against a baseline measured in the same loop; the target is a most for the ratio of p50s. */
export function ratioRow(
  id: string,
  subject: { name: string; latency: Latency },
  baseline: { name: string; latency: Latency },
  maxRatio: number,
): BenchRow {
  const ratio = ratioOfMedians(subject.latency, baseline.latency);
  return {
    id,
    subject: subject.name,
    latency: subject.latency,
    baseline,
    ratio,
    target: { text: `≤ ${maxRatio}×`, value: ratio, limit: maxRatio },
  };
}
