/**
 * The CI gate's result for a run (docs/statistics.md, "The CI gate"), pure: its rounds against its
 * series' history, already chosen (server/services/gate/baselines.ts) and read, each endpoint judged on its
 * gate metric, graded against the SLA, and decided (outcome.ts): pass, fail or inconclusive, on what the
 * project (or the upload's `fail_on`) says fails. The upload calls it on the run it has just parsed,
 * before storing it; GET …/verdict and the run page on the stored run.
 */
import type { ComparableRun, Comparison, CompareOptions, MetricComparison, SeriesValues } from "../compare/compare-runs";
import { compareRuns, lazyTrendValues } from "../compare/compare-runs";
import { comparisonKindOf, describeChangeStatus, explainInconclusive, headlineChanges, leaningSlowdownsOf, namedChangesOf } from "../compare/gate-summary";
import type { NamedChange } from "../compare/gate-summary";
import type { FailOnValue } from "../fail-on";
import type { ParsedRun } from "../run";
import { AGGREGATE_NAME } from "../run";
import type { SlaGrade } from "../sla/grade";
import type { Verdict } from "../stats/verdict";
import { pagePaths } from "../urls";
import type { IncidentState } from "../incidents/state";
import type { BaselineBasis } from "./baseline-window";
import type { AbJobRun, AbJobState } from "./ab-job";
import { describeAbJob } from "./ab-job";
import type { GateDecision, GateInput, Outcome } from "./outcome";
import { decideOutcome } from "./outcome";

/**
 * How the gate names a change (docs/statistics.md, "The CI gate"): `regressed`, worse and significant once
 * corrected for the endpoints judged (it fails the gate); `exact`, an exact count (allocations,
 * instructions) that changed, which no noise can explain (it fails the gate when worse by the minimum
 * effect); `undecided`, worse and significant alone but not once corrected, or not told apart from the
 * machine (the gate is inconclusive); `improved`, better and significant.
 */
export const GATE_CHANGE_STATUSES = ["regressed", "exact", "undecided", "improved"] as const;
export type GateChangeStatus = (typeof GATE_CHANGE_STATUSES)[number];

/** What a run keeps of each change its gate named (runs.gate_changes): what the overview and home card show. */
export interface KeptGateChange {
  /** null: the run's aggregate. */
  endpoint: string | null;
  /** The endpoint's protocol ("benchmark" for a benchmark). */
  protocol: string | null;
  metric: string;
  deltaPct: number | null;
  status: GateChangeStatus;
}

/** A change the gate named: the change, its status, and that status in words ("significant: p < 0.001, …"). */
export interface NamedGateChange extends GateChange {
  protocol: string | null;
  status: GateChangeStatus;
  why: string;
}

/** What a run keeps of the changes its gate named. */
export function keptGateChanges(changes: readonly NamedGateChange[]): KeptGateChange[] {
  return changes.map(({ endpoint, protocol, metric, deltaPct, status }) => ({ endpoint, protocol, metric, deltaPct, status }));
}

export interface GateChange {
  /** null: the run's aggregate ("all endpoints"). */
  endpoint: string | null;
  metric: string;
  unit: string | null;
  base: number | null;
  head: number | null;
  deltaPct: number | null;
  pValue: number | null;
  test: MetricComparison["test"];
  reason: string;
}

/** How the baseline was chosen, in words and in a word (server/services/gate/baselines.ts). */
export interface BaselineChoice {
  how: string;
  pinned: boolean;
  basis: BaselineBasis;
  openRegression: string | null;
  /** The open regression's incident, when it has one (the run page links it). */
  openIncident: { number: number; state: IncidentState } | null;
}

export interface GateResult {
  outcome: Outcome;
  failOn: FailOnValue[];
  /** Why it fails, or why it is inconclusive (empty when it passes). */
  reasons: string[];
  /** The reasons in a few words each, no user text: a headline's (GateDecision's `summary`). */
  summary: string;
  /** What else a reader should know (endpoints not judged, what the check could catch, an open regression). */
  notes: string[];
  /** When the regression check could not judge any endpoint: why, in a word and in words. */
  inconclusive: GateDecision["inconclusive"];
  comparison: {
    baseline: BaselineChoice & { runs: { id: string; label: string | null; round: number | null; startedAt: string }[] };
    /** The head's runs: this run and the earlier rounds of its commit judged with it. */
    headRuns: string[];
    verdict: Verdict;
    kind: string;
    /** Each endpoint's gate metric that regressed (what fails the gate). */
    regressions: GateChange[];
    /** Every change the gate named, slowdowns first, largest first, each with its status (a run keeps their gist: runs.gate_changes). */
    changes: NamedGateChange[];
    /** When no endpoint could be judged: the largest changes seen anyway, not judged (shown as such, never as "no change"). */
    unjudged: GateChange[];
    improvements: number;
    /** Path of the comparison page (prefix with the public base URL). */
    comparePath: string | null;
  };
  grade: SlaGrade | null;
  /** The tool's own pass/fail criteria (k6 thresholds): how many it evaluated, which failed. */
  thresholds: GateInput["thresholds"];
  /** An A/B job's run: where the job stands, and whether to run another pair; null otherwise. */
  ab: AbJobState | null;
}

/** The gate settings of a project (prisma/schema.prisma's defaults for a new one). */
export interface GateSettings {
  minEffectPct: number;
  alpha: number;
  gateMetric: string;
}

/** What the gate decides from runs already chosen and read. */
export interface GateRunsInput {
  /** The baseline's runs (newest first, as chosen). */
  baseRuns: readonly ComparableRun[];
  /** The head: the run and the earlier rounds of its commit. */
  headRuns: readonly ComparableRun[];
  /** Runs of the series before the window, read only for its longer-run noise. */
  noiseOnlyRuns: readonly ComparableRun[];
  project: GateSettings;
  failOn: readonly FailOnValue[];
  grade: SlaGrade | null;
  thresholds: GateInput["thresholds"];
  tool: string;
  baselineHow: string;
  openRegression: string | null;
}

/** How many of the changes seen (not judged) an inconclusive outcome names. */
const MAX_UNJUDGED = 3;

function toGateChange(endpoint: string, metric: MetricComparison): GateChange {
  return {
    endpoint: endpoint === AGGREGATE_NAME ? null : endpoint,
    metric: metric.metric,
    unit: metric.unit,
    base: metric.base.mean,
    head: metric.head.mean,
    deltaPct: metric.deltaPct,
    pValue: metric.pValue,
    test: metric.test,
    reason: metric.reason,
  };
}

/** Every change the comparison names, slowdowns first, largest first, with its status (gate-summary.ts). */
function namedChanges(comparison: Comparison, named: readonly NamedChange[]): NamedGateChange[] {
  const kind = comparisonKindOf(comparison);
  return named.map((change) => ({
    ...toGateChange(change.endpoint, change.metric),
    protocol: change.protocol,
    status: change.status,
    why: describeChangeStatus(change, { kind }),
  }));
}

/** The tool's own pass/fail criteria of a run (k6 thresholds): how many it evaluated, which failed. */
export function thresholdsOf(run: Pick<ParsedRun, "thresholds">): GateInput["thresholds"] {
  return {
    evaluated: run.thresholds.length,
    failed: run.thresholds.filter((threshold) => !threshold.passed).map(({ metric, expression }) => ({ metric, expression })),
  };
}

/** Each (endpoint, metric)'s values over the runs, oldest first: the series' longer-run noise. */
function seriesHistory(runs: readonly ComparableRun[]): SeriesValues {
  return lazyTrendValues([...runs].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt)));
}

const isUnjudged = (why: ReturnType<typeof explainInconclusive>) => why !== null && why.kind !== "undecided";

/** The comparison and the decision (scripts/evaluate-verdicts.ts measures this path on its own). */
export function decideFromRuns(input: GateRunsInput): { comparison: Comparison | null; decision: GateDecision } {
  const { baseRuns, headRuns, project } = input;
  // The series' earlier values: the floors' longer-run noise; for 1 vs 1, the noise band, learnt (as the
  // compare page does) from the runs before the base run, not from the base run itself.
  const history = baseRuns.length === 0 ? undefined : seriesHistory([...input.noiseOnlyRuns, ...(baseRuns.length > 1 ? baseRuns : [])]);
  const compare = (metrics: CompareOptions["metrics"]) =>
    compareRuns(baseRuns, headRuns, { minEffectPct: project.minEffectPct, alpha: project.alpha, test: "student", gateMetric: project.gateMetric, history, metrics });
  // The decision reads the gate metrics alone; every metric is compared only when no endpoint could be
  // judged and the gate metrics show fewer changes than the answer names (judgeGate's `unjudged` lists
  // the largest changes seen, the gate metrics' first): a suite of 10,000 benchmarks does not compare its
  // dozen other metrics each to name three changes its gate metrics already show.
  const gateOnly = baseRuns.length === 0 ? null : compare("gate");
  const needsEveryMetric = gateOnly !== null && explainInconclusive(gateOnly) !== null && headlineChanges(gateOnly, MAX_UNJUDGED).length < MAX_UNJUDGED;
  const comparison = needsEveryMetric ? compare("all") : gateOnly;
  const decision = decideOutcome({
    comparison,
    failOn: input.failOn,
    grade: input.grade,
    thresholds: input.thresholds,
    tool: input.tool,
    baselineHow: input.baselineHow,
    openRegression: input.openRegression,
  });
  return { comparison, decision };
}

export interface JudgeInput {
  projectSlug: string;
  project: GateSettings;
  baseline: BaselineChoice;
  baseRuns: readonly ComparableRun[];
  /** The run judged first, then the earlier rounds of its commit. */
  headRuns: readonly [ComparableRun, ...ComparableRun[]];
  noiseOnlyRuns: readonly ComparableRun[];
  /** The head run as parsed (its thresholds). */
  head: Pick<ParsedRun, "thresholds" | "tool">;
  grade: SlaGrade | null;
  failOn: FailOnValue[];
  /** An A/B job's run: the job's runs and the one judged (ab-job.ts); null otherwise. */
  ab?: { job: string; uploaded: AbJobRun; runs: readonly AbJobRun[] } | null;
}

/** The gate's result for a run, from its baseline and rounds as read: what the upload answers and keeps. */
export function judgeGate(input: JudgeInput): GateResult {
  const { baseRuns, headRuns, baseline, project } = input;
  const thresholds = thresholdsOf(input.head);
  const { comparison, decision } = decideFromRuns({
    baseRuns,
    headRuns,
    noiseOnlyRuns: input.noiseOnlyRuns,
    project,
    failOn: input.failOn,
    grade: input.grade,
    thresholds,
    tool: input.head.tool,
    baselineHow: baseline.how,
    openRegression: baseline.openRegression,
  });
  // Every change the gate names: the answer's list, and what an A/B job still leans to.
  const named = comparison ? namedChangesOf(comparison) : [];
  const improvements = comparison
    ? [...comparison.endpoints, comparison.aggregate].filter((endpoint) => endpoint.metrics.some((metric) => metric.gate && metric.verdict === "improved")).length
    : 0;
  const comparePath =
    baseRuns.length > 0
      ? pagePaths.compare(input.projectSlug, { base: baseRuns.map((run) => run.id), head: headRuns.map((run) => run.id), test: "student" })
      : null;
  return {
    outcome: decision.outcome,
    failOn: input.failOn,
    reasons: decision.reasons,
    summary: decision.summary,
    notes: decision.notes,
    inconclusive: decision.inconclusive,
    thresholds,
    comparison: {
      baseline: {
        runs: baseRuns.map((run) => ({ id: run.id, label: run.label, round: run.round, startedAt: run.startedAt })),
        how: baseline.how,
        pinned: baseline.pinned,
        basis: baseline.basis,
        openRegression: baseline.openRegression,
        openIncident: baseline.openIncident,
      },
      headRuns: headRuns.map((run) => run.id),
      verdict: comparison?.verdict ?? "inconclusive",
      kind: comparison?.kind ?? "none",
      regressions: decision.regressions.map(({ endpoint, metric }) => toGateChange(endpoint, metric)),
      changes: comparison ? namedChanges(comparison, named) : [],
      // Changes seen that nothing judged; undecided ones are named with their status in `changes` instead.
      unjudged: comparison && isUnjudged(explainInconclusive(comparison)) ? headlineChanges(comparison, MAX_UNJUDGED).map(({ endpoint, metric }) => toGateChange(endpoint, metric)) : [],
      improvements,
      comparePath,
    },
    grade: input.grade,
    ab: input.ab ? describeAbJob(input.ab.job, input.ab.uploaded, input.ab.runs, decision, leaningSlowdownsOf(named)) : null,
  };
}
