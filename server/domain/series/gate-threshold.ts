/**
 * The gate's threshold as the default branch's trend chart draws it (docs/trends.md, "The gate's
 * threshold"): the mean of the gate metric over the baseline a new run of the series would be judged
 * against, times (1 + the project's minimum effect). A run above it is not failed by that alone: the gate
 * also asks the slowdown to be significant (docs/statistics.md, "The CI gate"). Above the line is where
 * the gate may flag; below it, it never does.
 */
import { AUTO_GATE_METRIC } from "../compare/gate-metric";
import { TREND_LINES } from "./trend-series";
import type { TrendLine } from "./trend-series";

/** The order "auto" tries metrics in (gate-metric.ts), restricted to what a trend chart draws. */
const AUTO_ORDER: readonly TrendLine[] = ["p95", "p90", "p99", "p50", "mean"];

export type GateThreshold =
  | {
      metric: TrendLine;
      /** Whether the project's setting is "auto" (the metric chosen as the gate chooses it). */
      isAuto: boolean;
      baselineMean: number;
      baselineRuns: number;
      minEffectPct: number;
      /** baselineMean × (1 + minEffectPct / 100), in the metric's unit (ms). */
      value: number;
    }
  | { metric: null; why: string };

/**
 * The metric the threshold is drawn on: the project's gate metric when it is a line of the chart; for
 * "auto", a benchmark's mean, else the first of p95, p90, p99, p50, mean that every baseline run reports.
 */
export function chooseThresholdMetric(
  setting: string,
  isBenchmark: boolean,
  baseline: readonly Partial<Record<TrendLine, number | null>>[],
): { metric: TrendLine; isAuto: boolean } | { metric: null; why: string } {
  if (setting !== AUTO_GATE_METRIC) {
    const named = TREND_LINES.find((line) => line === setting);
    return named ? { metric: named, isAuto: false } : { metric: null, why: `the gate's metric, ${setting}, is not a line of this chart` };
  }
  const order = isBenchmark ? (["mean"] as const) : AUTO_ORDER;
  const metric = order.find((line) => baseline.length > 0 && baseline.every((run) => isFiniteNumber(run[line])));
  return metric ? { metric, isAuto: true } : { metric: null, why: "the baseline's runs share no latency metric" };
}

/** The threshold over these baseline runs' values of the chosen metric; a reason when there is none. */
export function gateThresholdOf(
  setting: string,
  isBenchmark: boolean,
  baseline: readonly Partial<Record<TrendLine, number | null>>[],
  minEffectPct: number,
): GateThreshold {
  if (baseline.length === 0) return { metric: null, why: "no baseline yet: the series has no earlier runs the gate would compare with" };
  const choice = chooseThresholdMetric(setting, isBenchmark, baseline);
  if (choice.metric === null) return choice;
  const values = baseline.map((run) => run[choice.metric]).filter(isFiniteNumber);
  if (values.length === 0) return { metric: null, why: `the baseline's runs report no ${choice.metric}` };
  const baselineMean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return { ...choice, baselineMean, baselineRuns: values.length, minEffectPct, value: baselineMean * (1 + minEffectPct / 100) };
}

function isFiniteNumber(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
