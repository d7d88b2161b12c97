import type { Comparison, MetricComparison } from "../domain/compare/compare-runs";
import { compareRuns, seriesValues } from "../domain/compare/compare-runs";
import { explainInconclusive, headlineChanges } from "../domain/compare/gate-summary";
import { AGGREGATE_NAME } from "../domain/run";
import type { SlaGrade } from "../domain/sla/grade";
import type { Verdict } from "../domain/stats/verdict";
import type { FailOnValue } from "../domain/fail-on";
import { effectiveFailOn } from "../domain/fail-on";
import type { GateDecision, GateInput, Outcome } from "../domain/gate/outcome";
import { decideOutcome } from "../domain/gate/outcome";
import { prCommentIdentity } from "../domain/report/pr-comment";
import { absoluteUrl, pagePaths } from "../domain/urls";
import type { PrismaClient } from "../generated/prisma/client";
import { chooseBaseline } from "./baselines";
import type { ChosenBaseline, RunForBaseline } from "./baselines";
import { toComparable } from "./compare-runs";
import { isPrivate } from "./auth";
import { shareLinkFor } from "./share-links";
import { gradeParsedRun, getSlaPolicy } from "./sla";
import type { LoadedRun } from "./stored-runs";
import { loadParsedRuns } from "./stored-runs";
import { notFound } from "./errors";
import { requireProject } from "./projects";
import { runPageUrl, toRunDocument } from "./run-document";
import { renderRunMarkdown } from "./run-markdown";

/**
 * The CI gate of a run (docs/statistics.md, "The CI gate"): its rounds (the run with the earlier uploads
 * of its commit) against its series' history (baselines.ts), each endpoint judged on its gate metric,
 * graded against the SLA, and decided (domain/gate/outcome.ts): pass, fail or inconclusive, on what the
 * project (or the upload's `fail_on`) says fails.
 */
export interface VerdictRegression {
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

export interface RunVerdict {
  outcome: Outcome;
  failOn: FailOnValue[];
  /** Why it fails, or why it is inconclusive (empty when it passes). */
  reasons: string[];
  /** What else a reader should know (endpoints not judged, what the check could catch, an open regression). */
  notes: string[];
  /** When the regression check could not judge any endpoint: why, in a word and in words. */
  inconclusive: GateDecision["inconclusive"];
  comparison: {
    baseline: {
      runs: { id: string; label: string | null; round: number | null; startedAt: string }[];
      how: string;
      pinned: boolean;
      basis: ChosenBaseline["basis"];
      openRegression: string | null;
    };
    /** The head's runs: this run and the earlier rounds of its commit judged with it. */
    headRuns: string[];
    verdict: Verdict;
    kind: string;
    /** Each endpoint's gate metric that regressed (what fails the gate). */
    regressions: VerdictRegression[];
    /** When no endpoint could be judged: the largest changes seen anyway, not judged (shown as such, never as "no change"). */
    unjudged: VerdictRegression[];
    improvements: number;
    /** Path of the comparison page (prefix with the public base URL). */
    comparePath: string | null;
  };
  grade: SlaGrade | null;
  /** The tool's own pass/fail criteria (k6 thresholds): how many it evaluated, which failed. */
  thresholds: { evaluated: number; failed: { metric: string; expression: string }[] };
  /** The judged run as loaded, so callers can render it without reading it again. */
  run: LoadedRun;
}

function toVerdictRegression(endpoint: string, metric: MetricComparison): VerdictRegression {
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

/** How many of the changes seen (not judged) an inconclusive verdict names. */
const MAX_UNJUDGED = 3;

/** The run a verdict judges: its id, what picks its baseline, and what its upload answered (when known). */
export type VerdictHead = RunForBaseline & { outcome?: string | null; outcomeReasons?: string[] };

type VerdictProject = { id: string; slug: string; defaultBranch: string; minEffectPct: number; alpha: number; gateMetric: string };

/** The stored run a verdict judges, or the not-found of a run that is not the project's. */
export async function findVerdictHead(db: PrismaClient, projectId: string, runId: string): Promise<VerdictHead> {
  const head = await db.run.findFirst({
    where: { id: runId, projectId },
    select: {
      id: true,
      label: true,
      tool: true,
      startedAt: true,
      gitBranch: true,
      gitCommit: true,
      config: true,
      gitBaseCommit: true,
      gitBaseBranch: true,
      gitBaseTime: true,
      outcome: true,
      outcomeReasons: true,
    },
  });
  if (!head) throw notFound(`Run "${runId}"`);
  return head;
}

/** Each (endpoint, metric)'s values over the runs, oldest first: the series' longer-run noise. */
function seriesHistory(runs: readonly LoadedRun[]): Map<string, number[]> {
  const ordered = [...runs].sort((a, b) => a.stored.startedAt.getTime() - b.stored.startedAt.getTime());
  return seriesValues(ordered.map(({ run }) => run));
}

/** What the gate decides from runs already chosen and loaded (the pure part of judgeRun; scripts/evaluate-verdicts.ts calls it too). */
export interface GateRunsInput {
  /** The baseline's runs (newest first, as chosen). */
  baseRuns: readonly LoadedRun[];
  /** The head: the run and the earlier rounds of its commit. */
  headRuns: readonly LoadedRun[];
  /** Runs of the series before the window, read only for its longer-run noise. */
  noiseOnlyRuns: readonly LoadedRun[];
  project: Pick<VerdictProject, "minEffectPct" | "alpha" | "gateMetric">;
  failOn: readonly FailOnValue[];
  grade: SlaGrade | null;
  thresholds: GateInput["thresholds"];
  tool: string;
  baselineHow: string;
  openRegression: string | null;
}

export function decideFromRuns(input: GateRunsInput): { comparison: Comparison | null; decision: GateDecision } {
  const { baseRuns, headRuns, project } = input;
  const comparison: Comparison | null =
    baseRuns.length === 0
      ? null
      : compareRuns(baseRuns.map(toComparable), headRuns.map(toComparable), {
          minEffectPct: project.minEffectPct,
          alpha: project.alpha,
          test: "student",
          gateMetric: project.gateMetric,
          // The series' earlier values: the floors' longer-run noise; for 1 vs 1, the noise band, learnt
          // (as the compare page does) from the runs before the base run, not from the base run itself.
          history: seriesHistory([...input.noiseOnlyRuns, ...(baseRuns.length > 1 ? baseRuns : [])]),
        });
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

/** Judges a run: its baseline and rounds (one read of their numbers), the run itself, the SLA policy. */
export async function judgeRun(db: PrismaClient, project: VerdictProject, head: VerdictHead, failOn: FailOnValue[]): Promise<RunVerdict> {
  const baseline = await chooseBaseline(db, project, head);
  const otherRounds = baseline.headRunIds.filter((id) => id !== head.id);
  // The head with its timelines: the answer carries the whole run, as GET …/runs/{id} does.
  const [numbers, headLoaded, policy] = await Promise.all([
    loadParsedRuns(db, project.id, [...baseline.runIds, ...baseline.noiseOnlyRunIds, ...otherRounds], { numbersOnly: true }),
    loadParsedRuns(db, project.id, [head.id], { timelines: true }),
    getSlaPolicy(db, project.id),
  ]);
  const headRun = headLoaded.get(head.id);
  if (!headRun) throw notFound(`Run "${head.id}"`);
  const loaded = (ids: readonly string[]) => ids.flatMap((id) => (numbers.has(id) ? [numbers.get(id)!] : []));
  const baseRuns = loaded(baseline.runIds);
  const headRuns = [headRun, ...loaded(otherRounds)];
  const grade = gradeParsedRun(policy, headRun.run);
  const thresholds = {
    evaluated: headRun.run.thresholds.length,
    failed: headRun.run.thresholds.filter((threshold) => !threshold.passed).map(({ metric, expression }) => ({ metric, expression })),
  };
  const { comparison, decision } = decideFromRuns({
    baseRuns,
    headRuns,
    noiseOnlyRuns: loaded(baseline.noiseOnlyRunIds),
    project,
    failOn,
    grade,
    thresholds,
    tool: headRun.run.tool,
    baselineHow: baseline.how,
    openRegression: baseline.openRegression,
  });
  const improvements = comparison
    ? [...comparison.endpoints, comparison.aggregate].filter((endpoint) => endpoint.metrics.some((metric) => metric.gate && metric.verdict === "improved")).length
    : 0;
  const comparePath =
    baseRuns.length > 0
      ? pagePaths.compare(project.slug, { base: baseRuns.map((run) => run.stored.id), head: headRuns.map((run) => run.stored.id), test: "student" })
      : null;
  return {
    outcome: decision.outcome,
    failOn,
    reasons: decision.reasons,
    notes: decision.notes,
    inconclusive: decision.inconclusive,
    thresholds,
    comparison: {
      baseline: {
        runs: baseRuns.map(({ run, stored }) => ({ id: stored.id, label: run.label, round: run.round, startedAt: stored.startedAt.toISOString() })),
        how: baseline.how,
        pinned: baseline.pinned,
        basis: baseline.basis,
        openRegression: baseline.openRegression,
      },
      headRuns: headRuns.map((run) => run.stored.id),
      verdict: comparison?.verdict ?? "inconclusive",
      kind: comparison?.kind ?? "none",
      regressions: decision.regressions.map(({ endpoint, metric }) => toVerdictRegression(endpoint, metric)),
      unjudged: comparison && explainInconclusive(comparison) ? headlineChanges(comparison, MAX_UNJUDGED).map(({ endpoint, metric }) => toVerdictRegression(endpoint, metric)) : [],
      improvements,
      comparePath,
    },
    grade,
    run: headRun,
  };
}

/** The verdict's comparison as the API shows it: absolute links to the baseline runs and the comparison page. */
function verdictComparison(verdict: RunVerdict, baseUrl: string, projectSlug: string) {
  const { comparison } = verdict;
  return {
    baseline: {
      how: comparison.baseline.how,
      pinned: comparison.baseline.pinned,
      basis: comparison.baseline.basis,
      openRegression: comparison.baseline.openRegression,
      runs: comparison.baseline.runs.map((run) => ({
        ...run,
        url: runPageUrl(baseUrl, projectSlug, run.id),
      })),
    },
    headRuns: comparison.headRuns,
    verdict: comparison.verdict,
    kind: comparison.kind,
    regressions: comparison.regressions,
    improvements: comparison.improvements,
    url: comparison.comparePath ? absoluteUrl(baseUrl, comparison.comparePath) : null,
  };
}

/** How long the share links of a private server's PR comment open their pages. */
const PR_SHARE_LINK_SECONDS = 30 * 24 * 3600;

/**
 * A verdict as both answers give it: the JSON fields, and the Markdown a PR comment shows. On a private
 * server (BENCHTRACK_READ_TOKEN) the Markdown links are share links, so reviewers can open them without
 * a token; the JSON keeps the plain links. The Markdown ends with the hidden marker of its project and
 * series, and the JSON carries it too (`comment`), so CI can find its comment again and update it in
 * place rather than add one per push (docs/ci.md).
 */
export async function verdictAnswer(project: { slug: string }, verdict: RunVerdict, baseUrl: string) {
  const run = toRunDocument(project, verdict.run, verdict.grade, baseUrl);
  const comparePath = verdict.comparison.comparePath;
  const compareShare = async () => {
    const link = await shareLinkFor(
      {
        kind: "compare",
        project: project.slug,
        base: verdict.comparison.baseline.runs.map((baseRun) => baseRun.id).join(","),
        head: verdict.comparison.headRuns.join(","),
        tool: null,
      },
      PR_SHARE_LINK_SECONDS,
      baseUrl,
    );
    // The gate's own test, so the page shows the numbers the gate decided on.
    const url = new URL(link.url);
    url.searchParams.set("test", "student");
    return url.toString();
  };
  const shared = isPrivate()
    ? {
        run: (await shareLinkFor({ kind: "run", project: project.slug, runId: verdict.run.stored.id }, PR_SHARE_LINK_SECONDS, baseUrl)).url,
        compare: comparePath === null ? null : await compareShare(),
      }
    : null;
  const identity = prCommentIdentity(project.slug, verdict.run.run);
  const markdown = `${renderRunMarkdown(shared ? { ...run, url: shared.run } : run, verdict, baseUrl, shared?.compare)}\n${identity.marker}\n`;
  return {
    run,
    shareLinks: shared,
    fields: {
      outcome: verdict.outcome,
      verdict: verdict.outcome,
      reasons: verdict.reasons,
      notes: verdict.notes,
      inconclusive: verdict.inconclusive,
      failOn: verdict.failOn,
      thresholds: verdict.thresholds,
      comparison: verdictComparison(verdict, baseUrl, project.slug),
      grade: verdict.grade,
      comment: { ...identity, markdown },
    },
    markdown: () => markdown,
  };
}

/** What the upload answered, kept with the run (null for runs stored before outcomes were kept). */
export interface KeptOutcome {
  outcome: Outcome;
  reasons: string[];
}

export function keptOutcome(row: { outcome?: string | null; outcomeReasons?: string[] }): KeptOutcome | null {
  const outcome = row.outcome === "pass" || row.outcome === "fail" || row.outcome === "inconclusive" ? row.outcome : null;
  return outcome === null ? null : { outcome, reasons: row.outcomeReasons ?? [] };
}

/**
 * GET …/runs/{id}/verdict: the gate of a stored run as it stands now (`failOn` as given or the
 * project's), and what its upload answered (`atUpload`): they differ when the SLA policy, a pin, a
 * triage or the history changed since, and both are shown, never one for the other.
 */
export async function getRunVerdict(db: PrismaClient, projectSlug: string, runId: string, failOn: FailOnValue[] | null, baseUrl: string) {
  const project = await requireProject(db, projectSlug);
  const head = await findVerdictHead(db, project.id, runId);
  const verdict = await judgeRun(db, project, head, effectiveFailOn(failOn, project.failOn));
  const answer = await verdictAnswer(project, verdict, baseUrl);
  return { json: { id: head.id, ...answer.fields, atUpload: keptOutcome(head) }, markdown: answer.markdown };
}
