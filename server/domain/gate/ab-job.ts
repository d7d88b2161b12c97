/**
 * Same-job A/B runs (docs/ci.md, "A/B jobs"): a CI job runs the merge-base ("base") and the pull request
 * ("head") one after the other, interleaved ABBA…, and uploads each run with its job, side and pair. The
 * gate judges the job's head runs against the job's own base runs: a burst that slows the job slows both
 * sides. After each complete pair the answer says whether more pairs could still change it (`next`), so the
 * job runs more pairs only while the answer is undecided, up to its budget.
 */
import type { Outcome } from "./outcome";
import type { InconclusiveKind } from "../compare/comparison";

export const AB_SIDES = ["base", "head"] as const;
export type AbSide = (typeof AB_SIDES)[number];

/** One run of an A/B job, as the gate reads its place. */
export interface AbJobRun {
  id: string;
  side: AbSide;
  pair: number;
}

/** The job as the upload answers it (`ab` in the upload answer). */
export interface AbJobState {
  job: string;
  /** The side and pair of the run just uploaded. */
  side: AbSide;
  pair: number;
  /** Pairs with both sides uploaded. */
  pairs: number;
  /** The job's base and head runs so far. */
  runs: { base: number; head: number };
  /** Whether the answer stands: more pairs would not change it. */
  decided: boolean;
  /** What the job should do next: run another pair (while undecided), or stop. */
  next: "stop" | "more-pairs";
  /** Why, in words. */
  reason: string;
}

/** Pairs of the job with both a base and a head run. */
export function completePairs(runs: readonly AbJobRun[]): number {
  const sides = new Map<number, Set<AbSide>>();
  for (const run of runs) sides.set(run.pair, (sides.get(run.pair) ?? new Set()).add(run.side));
  return [...sides.values()].filter((set) => set.size === 2).length;
}

/** Inconclusive kinds that more pairs of the same job can decide. */
const DECIDED_BY_MORE_PAIRS: readonly InconclusiveKind[] = ["too-little-history", "undecided"];

/**
 * Where the job stands after its latest upload: a pass stands, and a fail stands once no other gate metric
 * leans towards a slowdown undecided (until then another pair may name it); an inconclusive answer that more
 * pairs can decide asks for another pair; any other (too few requests, not comparable, no data) stands,
 * since more of the same runs would not change it.
 */
export function describeAbJob(
  job: string,
  uploaded: AbJobRun,
  runs: readonly AbJobRun[],
  answer: { outcome: Outcome; inconclusive: { kind: InconclusiveKind; reason: string } | null },
  /** Gate metrics the sequential test has not decided that lean towards a slowdown (named "undecided"). */
  leaningSlowdowns = 0,
): AbJobState {
  const pairs = completePairs(runs);
  const counts = { base: runs.filter((run) => run.side === "base").length, head: runs.filter((run) => run.side === "head").length };
  const base = { job, side: uploaded.side, pair: uploaded.pair, pairs, runs: counts };
  const isPairOpen = runs.filter((run) => run.pair === uploaded.pair).length < 2;
  if (isPairOpen) {
    const other = uploaded.side === "base" ? "head" : "base";
    return { ...base, decided: false, next: "more-pairs", reason: `pair ${uploaded.pair} has no ${other} run yet: upload it` };
  }
  if (answer.outcome === "fail" && leaningSlowdowns > 0) {
    // The job fails; another pair may still name (or clear) the benchmarks that lean towards a slowdown.
    return {
      ...base,
      decided: false,
      next: "more-pairs",
      reason: `fail after ${pairs} pair${pairs === 1 ? "" : "s"}, with ${leaningSlowdowns} more ${leaningSlowdowns === 1 ? "change" : "changes"} leaning towards a slowdown, undecided: another pair tells`,
    };
  }
  if (answer.outcome !== "inconclusive") {
    return { ...base, decided: true, next: "stop", reason: `${answer.outcome} after ${pairs} pair${pairs === 1 ? "" : "s"}: more pairs would not change it` };
  }
  const kind = answer.inconclusive?.kind ?? "no-data";
  if (DECIDED_BY_MORE_PAIRS.includes(kind)) {
    return { ...base, decided: false, next: "more-pairs", reason: `undecided after ${pairs} pair${pairs === 1 ? "" : "s"}: another pair may decide` };
  }
  return { ...base, decided: true, next: "stop", reason: `inconclusive (${kind}): more pairs of the same runs would not decide it` };
}
