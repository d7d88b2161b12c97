/**
 * The latency resolution of each ingest format: the smallest change a stored latency statistic can show,
 * given how the tool recorded and printed it and how OUR parser turned that into a number. A comparison
 * must never call a change smaller than this significant: Locust's p50 going 9 → 10 ms is one step of its
 * histogram, not a measured +11%.
 *
 * A resolution has two sources, and the coarser wins:
 * - recording: the tool keeps each latency on a grid before any statistic is taken (Locust rounds it into
 *   its histogram, autocannon and wrk count whole ms/µs, artillery's sketch keeps ~2% buckets of whole-ms
 *   times, JMeter writes whole ms);
 * - printing: a text report writes a fixed number of decimals in a unit chosen by magnitude (wrk `%.2f`
 *   us/ms/s/m, hey `%4.4f` seconds, vegeta Go durations rounded to the unit below the value's own).
 * The value decides the step where the tool switches grids or units by magnitude; on a switch the coarser
 * step is returned (a stored value exactly on the edge may have been printed in either unit).
 *
 * Where OUR parser computes a statistic from per-request samples (hey and ghz CSV rows, JMeter JTL
 * samples), two cases differ:
 * - percentiles interpolate between two ranks (`stats/percentile.ts`), so a stored p95 of whole-ms
 *   samples can read 12.35: not a multiple of 1 ms, yet it only moves when a whole-ms sample moves, so
 *   its resolution is still the sample's step (`INTERPOLATED_PERCENTILE_FORMATS` names these formats);
 * - the mean of n samples moves in steps of step/n and their rounding averages out (Sheppard's
 *   corrections: rounding to a step h adds variance h²/12 per sample and, for a spread wider than a step,
 *   no bias to the mean), so it is not confined to the grid: such means are full precision (0), and the
 *   sampling noise is the statistics' business, not the format's.
 *
 * Each format's rule is declared with its parser, in its tool's descriptor (`latency`, with the reasons
 * and the tool's source it was read from); this file derives the lookups from the list of tools.
 */
import { metricDefinition } from "../metrics";
import type { FormatId } from "../run";
import type { LatencyStat, ResolutionRule } from "./tool-descriptor";
import { TOOL_FORMATS } from "./tools";

export { ARTILLERY_SKETCH_GAMMA, ARTILLERY_SKETCH_RELATIVE_ACCURACY } from "./artillery";

/** Each format's rule, as its tool's descriptor declares it (`latency.rule`, beside the rule's reasons). */
const RULES = Object.fromEntries(TOOL_FORMATS.map((format) => [format.info.id, format.latency.rule])) as Readonly<
  Record<FormatId, ResolutionRule>
>;

/**
 * Formats whose stored percentiles OUR parser interpolates between the ranks of stepped samples: not
 * multiples of the step, but only as informative as it (see the header). Declared `interpolatedPercentiles`.
 */
export const INTERPOLATED_PERCENTILE_FORMATS: ReadonlySet<FormatId> = new Set(
  TOOL_FORMATS.filter((format) => format.latency.interpolatedPercentiles).map((format) => format.info.id),
);

/**
 * Formats whose stored time is the reciprocal of a printed rate (benchmark.js prints ops/s; its mean time
 * per operation is 1000 / hz ms): not a multiple of any step, but 1000 / value is a multiple of the
 * rate's printed step. Their rule's step is that rate step seen in ms at the value (see the rule).
 * Declared `reciprocalRate`.
 */
export const RECIPROCAL_RATE_FORMATS: ReadonlySet<FormatId> = new Set(
  TOOL_FORMATS.filter((format) => format.latency.reciprocalRate).map((format) => format.info.id),
);

/** "p95", "p99.9" (any percentile metrics.ts accepts) → "percentile"; "mean", "min", "max" as they are. */
function latencyStatOf(metric: string): LatencyStat | null {
  if (metric === "mean" || metric === "min" || metric === "max") return metric;
  const percentile = metricDefinition(metric)?.percentile;
  return percentile === null || percentile === undefined ? null : "percentile";
}

function isFormatId(format: string): format is FormatId {
  return Object.hasOwn(RULES, format);
}

/** The step (ms) in which `format` writes or records the latency statistic `metric` of about `valueMs`; 0 when written at full precision. */
export function latencyResolutionMs(format: string, metric: string, valueMs: number): number {
  if (!(valueMs >= 0) || !Number.isFinite(valueMs)) {
    // A latency is a finite, non-negative number of ms: anything else is the caller's bug, not data.
    throw new RangeError(`latencyResolutionMs: invalid latency ${valueMs}`);
  }
  const stat = latencyStatOf(metric);
  if (stat === null || !isFormatId(format)) return 0;
  return RULES[format](stat, valueMs);
}
