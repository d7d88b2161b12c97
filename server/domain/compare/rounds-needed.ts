/**
 * "How many rounds?": on a group comparison (≥ 2 rounds per side) that found no change it can stand
 * behind, how many rounds per side would detect the project's minimum effect at the noise these rounds
 * show, with the comparison's own test, α and 80% power (../stats/sample-size.ts; docs/statistics.md,
 * "How many rounds?").
 *
 * A metric is undecided when its test found nothing significant (after the correction for many tests)
 * and its 95% CI of Δ% still reaches the minimum effect, or when a side has a single value (its noise is
 * unknown: "cannot tell"). A CI inside ±minimum effect already rules that change out: nothing to add.
 * Metrics that more rounds cannot help (a percentile with too few requests per run, a base of 0, a
 * direction nobody stated) are not advised on.
 */
import { formatNumber } from "../format";
import { endpointDisplayName } from "../run";
import { isInsufficient, insufficientData } from "../stats/insufficient";
import type { RoundsToDetect } from "../stats/sample-size";
import { DEFAULT_POWER, roundsToDetect } from "../stats/sample-size";
import { SIGNIFICANCE_TEST_NAMES, type SignificanceTest } from "../stats/verdict";
import type { Comparison, MetricComparison, MetricRounds, RoundsAdvice } from "./comparison";
import { MAX_RUNS_PER_SIDE } from "./selector";

export type { MetricRounds, RoundsAdvice } from "./comparison";

export interface RoundsOptions {
  minEffectPct: number;
  alpha: number;
  test: SignificanceTest;
  power?: number;
}

const HEADLINE_METRIC = "p95";

function noisePct(side: MetricComparison["base"]): number | null {
  return side.sd !== null && side.mean !== null && side.mean !== 0 ? (100 * side.sd) / Math.abs(side.mean) : null;
}

function isUndecided(metric: MetricComparison, options: RoundsOptions): boolean {
  if (metric.better === null) return false;
  if (metric.verdict === "inconclusive") {
    // Only a missing spread is something more rounds fix; the other reasons are not about rounds.
    const counts = [metric.base.n, metric.head.n];
    return metric.test === null && counts.every((n) => n >= 1) && counts.some((n) => n < 2) && metric.base.mean !== 0;
  }
  if (
    metric.verdict !== "unchanged" ||
    metric.pValue === null ||
    (metric.test !== "welch" && metric.test !== "student" && metric.test !== "mann-whitney")
  )
    return false;
  if ((metric.adjustedPValue ?? metric.pValue) < options.alpha) return false; // significant, only smaller than the minimum effect
  const ci = metric.deltaPctCi95;
  return ci === null || ci[0] <= -options.minEffectPct || ci[1] >= options.minEffectPct;
}

function estimateFor(metric: MetricComparison, options: RoundsOptions): RoundsToDetect {
  const { base, head } = metric;
  if (base.sd === null || head.sd === null || base.mean === null) {
    const lonely = base.n < 2 ? `${base.n} base value` : `${head.n} head value`;
    return insufficientData(`cannot tell: the noise is unknown with ${lonely}${lonely.startsWith("1 ") ? "" : "s"}`);
  }
  return roundsToDetect({
    baseSd: base.sd,
    headSd: head.sd,
    effect: (Math.abs(base.mean) * options.minEffectPct) / 100,
    alpha: options.alpha,
    power: options.power ?? DEFAULT_POWER,
    test: options.test,
    maxRounds: MAX_RUNS_PER_SIDE,
  });
}

/** For sorting: the most rounds first, "more than the cap" before any number, "cannot tell" last. */
function weight(estimate: RoundsToDetect): number {
  if (isInsufficient(estimate)) return -1;
  return estimate.status === "beyond" ? Number.POSITIVE_INFINITY : estimate.roundsPerSide;
}

/** The advice for a comparison, or null when it is not a group comparison or nothing is left undecided. */
export function adviseRounds(
  comparison: Pick<Comparison, "kind" | "verdict" | "notComparable" | "endpoints" | "aggregate">,
  options: RoundsOptions,
): RoundsAdvice | null {
  if (comparison.kind !== "groups" || comparison.notComparable !== null) return null;
  if (comparison.verdict !== "inconclusive" && comparison.verdict !== "unchanged") return null;
  const metrics = [...comparison.endpoints, comparison.aggregate].flatMap((endpoint) =>
    endpoint.metrics
      .filter((metric) => isUndecided(metric, options))
      .map((metric): MetricRounds => ({
        endpoint: endpoint.name,
        metric: metric.metric,
        baseNoisePct: noisePct(metric.base),
        headNoisePct: noisePct(metric.head),
        have: { base: metric.base.n, head: metric.head.n },
        estimate: estimateFor(metric, options),
      })),
  );
  if (metrics.length === 0) return null;
  metrics.sort((a, b) => weight(b.estimate) - weight(a.estimate));
  const headline =
    metrics.find((entry) => entry.endpoint === comparison.aggregate.name && entry.metric === HEADLINE_METRIC) ??
    metrics[0]!;
  const settings = {
    minEffectPct: options.minEffectPct,
    alpha: options.alpha,
    power: options.power ?? DEFAULT_POWER,
    test: options.test,
  };
  return { ...settings, headline, metrics, sentence: describeMetricRounds(headline, settings) };
}

function noiseText(entry: MetricRounds): string {
  const pct = (value: number | null) => (value === null ? "unknown" : `${formatNumber(value, 1)}%`);
  return `round-to-round noise ${pct(entry.baseNoisePct)} base, ${pct(entry.headNoisePct)} head`;
}

/** One metric's answer in a sentence, as the compare page and the Markdown say it. */
export function describeMetricRounds(
  entry: MetricRounds,
  advice: Pick<RoundsAdvice, "minEffectPct" | "alpha" | "power" | "test">,
): string {
  const what = `a ${formatNumber(advice.minEffectPct)}% change in ${entry.metric} (${endpointDisplayName(entry.endpoint)})`;
  const how = `${SIGNIFICANCE_TEST_NAMES[advice.test]}, α = ${advice.alpha}, ${formatNumber(100 * advice.power, 0)}% power`;
  const have = `${entry.have.base} vs ${entry.have.head}`;
  const { estimate } = entry;
  if (isInsufficient(estimate))
    return `How many rounds would detect ${what}? Cannot tell: ${estimate.reason.replace(/^cannot tell: /, "")}.`;
  if (estimate.status === "beyond") {
    return `Detecting ${what} at this noise (${noiseText(entry)}) would take more than ${estimate.maxRounds} rounds per side (${how}): reduce the noise first.`;
  }
  const rounds = estimate.roundsPerSide;
  if (rounds <= Math.min(entry.have.base, entry.have.head)) {
    return `${have} rounds are enough to detect ${what} at this noise (${noiseText(entry)}; ${rounds} per side suffice with ${how}): a change that large would likely have shown.`;
  }
  return `About ${rounds} rounds per side would detect ${what} at this noise (${noiseText(entry)}; ${how}); this comparison has ${have}.`;
}
