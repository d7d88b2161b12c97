/**
 * The highest load that still met the SLA: the highest measured load level at which the endpoint's
 * pooled result passed every SLA check that applies to it (levels.ts `gradeLevel`). A typed answer for
 * each case a reader must be told apart: no SLA, no data, none met, all met (the limit lies beyond the
 * measured range), or a limit, with the levels below it that failed when the curve is not monotone.
 */
import type { CapacityLevel } from "./levels";

export type SlaLimit =
  | { status: "no-sla"; reason: string }
  | { status: "no-data"; reason: string }
  | { status: "none-met"; lowestLoad: number }
  | { status: "all-met"; highestLoad: number }
  | {
      status: "limit";
      /** The highest level that passed. */
      load: number;
      /** The lowest failing level above it (null when the failures are all below it). */
      nextLoad: number | null;
      /** Failing levels below it, in load order (noise, or a curve that is not monotone). */
      failedBelow: number[];
    };

/** @param levels in increasing load order; `noSlaReason` says why when no level has an SLA to meet. */
export function findSlaLimit(levels: readonly Pick<CapacityLevel, "load" | "sla">[], noSlaReason: string): SlaLimit {
  const withTargets = levels.filter((level) => level.sla !== null);
  if (withTargets.length === 0) return { status: "no-sla", reason: noSlaReason };
  const graded = withTargets.filter((level) => level.sla!.passed !== null);
  if (graded.length === 0) {
    return { status: "no-data", reason: "none of the SLA targets that apply had data at any load level" };
  }
  const passing = graded.filter((level) => level.sla!.passed === true);
  const failing = graded.filter((level) => level.sla!.passed === false);
  if (passing.length === 0) return { status: "none-met", lowestLoad: graded[0]!.load };
  if (failing.length === 0) return { status: "all-met", highestLoad: graded[graded.length - 1]!.load };
  const load = passing[passing.length - 1]!.load;
  return {
    status: "limit",
    load,
    nextLoad: failing.find((level) => level.load > load)?.load ?? null,
    failedBelow: failing.filter((level) => level.load < load).map((level) => level.load),
  };
}
