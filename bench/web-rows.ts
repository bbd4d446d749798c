/** A row of the browser table: a figure (ms, bytes or a count), perhaps against a floor, and its target. */
import type { Latency } from './latency.ts';
import type { Target } from './rows.ts';

export interface WebRow {
  id: string;
  subject: string;
  /** The figure itself: a p50 in ms, a size in bytes, or a count. */
  value: number;
  unit?: 'ms' | 'bytes';
  latency?: Latency;
  baseline: { name: string; value: number; latency?: Latency } | null;
  target: Target;
  note?: string | undefined;
}
