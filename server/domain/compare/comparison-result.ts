import type { DistributionComparison } from "./distributions";
import type { SignificanceTest } from "../stats/verdict";
import type { Comparison } from "./comparison";

/**
 * A comparison of two run selections as it is shown (the API, the compare page, its Markdown and preview
 * image): the sides as resolved, the comparison, the pooled distributions and the options it was judged with.
 */
export interface ResolvedRun {
  id: string;
  label: string | null;
  round: number | null;
  startedAt: Date;
  branch: string | null;
  commit: string | null;
}

export interface ResolvedSide {
  /** The selector, normalized ("label:baseline", "a,b"). */
  selector: string;
  runs: ResolvedRun[];
}

export interface ComparisonResult {
  base: ResolvedSide;
  head: ResolvedSide;
  comparison: Comparison;
  /** Base and head latency distributions, pooled across rounds from the runs' histograms, with a KS test. */
  distributions: DistributionComparison;
  options: { minEffectPct: number; alpha: number; test: SignificanceTest; gateMetric: string };
  /** Per-round table: each run's p95/p50… is in comparison.*.metrics[].base/head.values with runIds. */
}
