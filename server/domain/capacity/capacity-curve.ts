/**
 * A capacity curve (docs/statistics.md, "Capacity"): an endpoint's results of one series, one point per
 * load level, its knee (knee.ts) and the highest load that met the SLA (sla-limit.ts), and the words the
 * page's caption says of them. Pure: the service reads the runs, the chart draws what comes out.
 */
import { formatMs, formatNumber, formatRate } from "../format";
import { canonicalThreshold, type SlaPolicy } from "../sla/policy";
import { matchesGlob } from "../sla/glob";
import { findKnee, type KneeResult } from "./knee";
import { buildLevels, type CapacityLevel, type CapacityRunResult } from "./levels";
import { describeLoad, type LoadLevelKey } from "./load-level";
import { findSlaLimit, type SlaLimit } from "./sla-limit";

/** The latency the knee is found on. */
export const KNEE_METRIC = "p95";

export interface CapacityCurve {
  /** In increasing load order. */
  levels: CapacityLevel[];
  knee: KneeResult;
  slaLimit: SlaLimit;
}

export function buildCapacityCurve(
  runs: readonly CapacityRunResult[],
  key: LoadLevelKey,
  policy: SlaPolicy | null,
  isAggregate: boolean,
): CapacityCurve {
  const levels = buildLevels(runs, key, policy, isAggregate);
  const withLatency = levels.flatMap((level) =>
    level.p95Ms === null ? [] : [{ load: level.load, latencyMs: level.p95Ms }],
  );
  const noSlaReason = policy === null ? "the project has no SLA targets" : "no SLA target applies to this endpoint";
  return { levels, knee: findKnee(withLatency, KNEE_METRIC), slaLimit: findSlaLimit(levels, noSlaReason) };
}

export type CapacityXAxis = "throughput" | "load";

/**
 * Achieved throughput must span at least this ratio across the levels to serve as the x axis: below it
 * the points stack on one vertical line (a saturated service, or a tool that capped its rate), and the
 * load level says more.
 */
export const MIN_THROUGHPUT_SPREAD = 1.1;

/** The x axis the chart draws: throughput (the default) when every level has one and it spreads, else the load level, saying why. */
export function chooseXAxis(
  levels: readonly CapacityLevel[],
  requested: CapacityXAxis,
): { axis: CapacityXAxis; note: string | null } {
  if (requested === "load" || levels.length === 0) return { axis: "load", note: null };
  const throughputs = levels.map((level) => level.throughput);
  if (throughputs.some((value) => value === null || value <= 0)) {
    return {
      axis: "load",
      note: "The tool reported no throughput at some load levels, so latency is drawn against the load level.",
    };
  }
  const values = throughputs as number[];
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (high / low < MIN_THROUGHPUT_SPREAD) {
    const range = formatRate(low) === formatRate(high) ? formatRate(low) : `${formatRate(low)} to ${formatRate(high)}`;
    return {
      axis: "load",
      note: `Achieved throughput hardly changed across the load levels (${range}), so latency is drawn against the load level instead.`,
    };
  }
  return { axis: "throughput", note: null };
}

/** An SLA latency ceiling the chart draws as a horizontal line: a p50/p95/p99 target that applies to the endpoint. */
export interface SlaLatencyLine {
  metric: "p50" | "p95" | "p99";
  thresholdMs: number;
}

export function slaLatencyLines(
  policy: SlaPolicy | null,
  endpointName: string,
  isAggregate: boolean,
): SlaLatencyLine[] {
  if (!policy) return [];
  const lines = policy.targets.flatMap((target) => {
    const applies =
      target.scope === "aggregate"
        ? isAggregate
        : !isAggregate && (target.scope === "endpoints" || matchesGlob(target.scope.match, endpointName));
    const isCeiling = target.op === "<=" || target.op === "<";
    if (!applies || !isCeiling || (target.metric !== "p50" && target.metric !== "p95" && target.metric !== "p99"))
      return [];
    return [{ metric: target.metric, thresholdMs: canonicalThreshold(target).threshold }];
  });
  // One line per metric: the strictest ceiling.
  return (["p50", "p95", "p99"] as const).flatMap((metric) => {
    const ceilings = lines.filter((line) => line.metric === metric).map((line) => line.thresholdMs);
    return ceilings.length === 0 ? [] : [{ metric, thresholdMs: Math.min(...ceilings) }];
  });
}

function levelAt(levels: readonly CapacityLevel[], load: number): CapacityLevel | undefined {
  return levels.find((level) => level.load === load);
}

/** "concurrency 20 (99.9 req/s)": a level with its achieved throughput when known. */
function describeLevel(key: LoadLevelKey, level: CapacityLevel | undefined, load: number): string {
  const throughput = level?.throughput ?? null;
  return throughput === null ? describeLoad(key, load) : `${describeLoad(key, load)} (${formatRate(throughput)})`;
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The knee in words, for the caption. */
export function describeKnee(curve: CapacityCurve, key: LoadLevelKey): string {
  const { knee, levels } = curve;
  if (knee.status !== "knee") return sentence(knee.reason);
  const last = [...levels].reverse().find((level) => level.p95Ms !== null);
  const after = last && last.load !== knee.load ? `, ${formatMs(last.p95Ms)} at ${describeLoad(key, last.load)}` : "";
  return `${KNEE_METRIC} bends at ${describeLevel(key, levelAt(levels, knee.load), knee.load)}: ${formatMs(knee.latencyMs)} there${after}.`;
}

/** The SLA limit in words, for the caption. */
export function describeSlaLimit(curve: CapacityCurve, key: LoadLevelKey): string {
  const { slaLimit: limit, levels } = curve;
  const firstFailure = (load: number) => {
    const failure = levelAt(levels, load)?.sla?.failures[0];
    return failure ? ` (${failure})` : "";
  };
  switch (limit.status) {
    case "no-sla":
    case "no-data":
      return sentence(`No SLA limit: ${limit.reason}`);
    case "none-met":
      return `No measured load level met the SLA: even ${describeLevel(key, levelAt(levels, limit.lowestLoad), limit.lowestLoad)} missed it${firstFailure(limit.lowestLoad)}.`;
    case "all-met":
      return `Every measured load level met the SLA, up to ${describeLevel(key, levelAt(levels, limit.highestLoad), limit.highestLoad)}: the limit lies beyond the measured range.`;
    case "limit": {
      const next =
        limit.nextLoad === null
          ? ""
          : `; ${describeLoad(key, limit.nextLoad)} missed it${firstFailure(limit.nextLoad)}`;
      const below =
        limit.failedBelow.length === 0
          ? ""
          : ` It also missed at ${limit.failedBelow.map((load) => describeLoad(key, load)).join(", ")}.`;
      return `Highest load that met the SLA: ${describeLevel(key, levelAt(levels, limit.load), limit.load)}${next}.${below}`;
    }
  }
}

/** "3 load levels, 4 runs" for the caption's first line. */
export function describeLevels(curve: CapacityCurve): string {
  const runs = curve.levels.reduce((sum, level) => sum + level.runIds.length, 0);
  const levels = curve.levels.length;
  return `${formatNumber(levels)} load level${levels === 1 ? "" : "s"}, ${formatNumber(runs)} run${runs === 1 ? "" : "s"}`;
}
