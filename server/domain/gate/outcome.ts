/**
 * The CI gate's answer (docs/statistics.md, "The CI gate"): one of three outcomes, never a PASS that
 * only means "could not tell".
 *
 *   fail          something the upload's fail_on names failed: a gate metric regressed against the
 *                 baseline (significant after Holm's correction over the endpoints judged, one-sided,
 *                 and at least the minimum effect and the tool's resolution), an SLA check, or one of
 *                 the tool's own thresholds;
 *   inconclusive  nothing failed, but the regression check (when fail_on has it) found a likely slowdown
 *                 it cannot establish yet ("undecided": significant alone, not once corrected), or could
 *                 not judge a single endpoint: too little history, too few requests, not comparable, or
 *                 no data — said why, with what would decide it;
 *   pass          nothing failed and at least one endpoint was judged. Endpoints that could not be are
 *                 named in the notes, and so is the smallest slowdown the check could have caught.
 *
 * An outcome is a different word from a comparison's verdict (regressed, improved, unchanged,
 * inconclusive), which describes one metric.
 */
import type { FailOnValue } from "../fail-on";
import type { SlaGrade } from "../sla/grade";
import { countNouns, wordsOf } from "../result-kind";
import { describeThreshold } from "../tool-thresholds";
import type { Comparison, InconclusiveKind } from "../compare/compare-runs";
import type { GateMetric } from "../compare/gate-summary";
import {
  comparisonKindOf,
  describeNamedChange,
  describeNotJudged,
  explainInconclusive,
  gateMetricsOf,
  INCONCLUSIVE_KIND_WORDS,
  MAX_NAMED_IN_REASON,
  namedChangesOf,
} from "../compare/gate-summary";

export const OUTCOMES = ["pass", "fail", "inconclusive"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Why a regression check could not decide, in one word each (the API's `inconclusive.kind`). */
export const INCONCLUSIVE_KINDS = ["too-little-history", "undecided", "too-few-requests", "not-comparable", "no-data"] as const satisfies readonly InconclusiveKind[];

export interface GateInput {
  /** The run (or its rounds) against its baseline; null when there is no baseline run at all. */
  comparison: Comparison | null;
  failOn: readonly FailOnValue[];
  grade: SlaGrade | null;
  thresholds: { evaluated: number; failed: readonly { metric: string; expression: string }[] };
  tool: string;
  /** How the baseline was chosen, in words. */
  baselineHow: string;
  /** Where the window stops before an open regression: its summary, for the reasons and notes. */
  openRegression: string | null;
}

export interface GateDecision {
  outcome: Outcome;
  /** Why it fails, or why it is inconclusive; empty when it passes. */
  reasons: string[];
  /**
   * The reasons in a few words each, for a headline (a PR comment's first line, a check's title):
   * "2 endpoints regressed · SLA grade D", "too little history"; empty when it passes. No user text,
   * so it stays short whatever the labels and endpoint names are.
   */
  summary: string;
  /** What else a reader should know: endpoints not judged, the smallest slowdown it could catch, an open regression. */
  notes: string[];
  /** The gate metrics that regressed (whatever fail_on says): what `runs.regressed` keeps. */
  regressions: GateMetric[];
  /** The regression check's own answer when it could not judge any endpoint (null when it could). */
  inconclusive: { kind: InconclusiveKind; reason: string } | null;
}

/** The regression check alone: its regressions, why it could not judge, and notes. */
function checkRegressions(input: GateInput) {
  const notes: string[] = [];
  if (input.comparison === null) {
    return {
      regressions: [],
      inconclusive: { kind: "too-little-history" as const, reason: `too little history: ${input.baselineHow}` },
      notes,
    };
  }
  const { comparison } = input;
  const inconclusive = explainInconclusive(comparison);
  if (inconclusive !== null) return { regressions: [], inconclusive, notes };
  const judged = gateMetricsOf(comparison).filter(({ metric }) => metric.verdict !== "inconclusive");
  const regressions = judged.filter(({ metric }) => metric.verdict === "regressed");
  const notJudged = describeNotJudged(comparison);
  if (notJudged !== null) notes.push(notJudged);
  const detectable = judged.flatMap(({ metric }) => (metric.detectablePct === null ? [] : [metric.detectablePct]));
  if (regressions.length === 0 && detectable.length > 0) {
    const low = Math.min(...detectable);
    const high = Math.max(...detectable);
    const range = Math.round(low) === Math.round(high) ? `${Math.round(high)}%` : `${Math.round(low)}–${Math.round(high)}%`;
    notes.push(`no ${wordsOf(comparisonKindOf(comparison)).noun} slower beyond the noise; at this history's noise the check catches slowdowns of about ${range} or more (80% of the time)`);
  }
  if (input.openRegression !== null) {
    notes.push(
      `open regression on this series: ${input.openRegression}; runs are judged against the level before it until its incident is accepted (the new level becomes the baseline) or marked invalid`,
    );
  }
  return { regressions, inconclusive: null, notes };
}

export function decideOutcome(input: GateInput): GateDecision {
  const check = checkRegressions(input);
  const reasons: string[] = [];
  const summaries: string[] = [];
  const { failOn, thresholds, grade } = input;
  const kind = input.comparison === null ? "endpoint" : comparisonKindOf(input.comparison);
  if (failOn.includes("thresholds") && thresholds.failed.length > 0) {
    const listed = thresholds.failed.slice(0, 5).map(describeThreshold);
    const more = thresholds.failed.length > listed.length ? ` and ${thresholds.failed.length - listed.length} more` : "";
    const failed = `${thresholds.failed.length} of ${thresholds.evaluated}`;
    reasons.push(`${failed} ${input.tool} thresholds failed: ${listed.join(", ")}${more}`);
    summaries.push(`${failed} tool thresholds failed`);
  }
  if (failOn.includes("regression") && check.regressions.length > 0 && input.comparison !== null) {
    // Every change beyond the noise, largest first, each with its status: the regressions that fail the
    // gate, and beside them the likely slowdowns it could not establish (a reviewer should see them all).
    const worse = namedChangesOf(input.comparison).filter((change) => change.status !== "improved");
    const listed = worse.slice(0, MAX_NAMED_IN_REASON).map((change) => describeNamedChange(change, kind));
    const more = worse.length > listed.length ? `; and ${worse.length - listed.length} more (the answer's comparison.changes has every one)` : "";
    const failing = new Set(check.regressions.map((change) => change.endpoint)).size;
    const against = input.openRegression === null ? input.baselineHow : `${input.baselineHow}, before the open regression`;
    reasons.push(`${countNouns(failing, kind)} regressed against the baseline (${against}); beyond the noise, largest first: ${listed.join("; ")}${more}`);
    summaries.push(`${countNouns(failing, kind)} regressed`);
  }
  if (failOn.includes("sla") && grade?.letter && grade.passed < grade.evaluated) {
    reasons.push(`SLA grade ${grade.letter}: ${grade.evaluated - grade.passed} of ${grade.evaluated} checks failed`);
    summaries.push(`SLA grade ${grade.letter}`);
  }
  const { notes, regressions, inconclusive } = check;
  if (reasons.length > 0) return { outcome: "fail", reasons, summary: summaries.join(" · "), notes, regressions, inconclusive };
  if (failOn.includes("regression") && inconclusive !== null) {
    const summary = INCONCLUSIVE_KIND_WORDS[inconclusive.kind];
    return { outcome: "inconclusive", reasons: [inconclusive.reason], summary, notes, regressions, inconclusive };
  }
  return { outcome: "pass", reasons: [], summary: "", notes, regressions, inconclusive };
}
