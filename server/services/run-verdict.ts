import type { MetricComparison } from "../domain/compare/compare-runs";
import { compareRuns } from "../domain/compare/compare-runs";
import { loadProfileDifference } from "../domain/compare/load-profile";
import { AGGREGATE_NAME } from "../domain/run";
import type { SlaGrade } from "../domain/sla/grade";
import type { Verdict } from "../domain/stats/verdict";
import type { FailOnValue } from "../domain/fail-on";
import { effectiveFailOn } from "../domain/fail-on";
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
import { loadParsedRun, loadParsedRuns } from "./stored-runs";
import { notFound } from "./errors";
import { requireProject } from "./projects";
import { runPageUrl, toRunDocument } from "./run-document";
import { renderRunMarkdown } from "./run-markdown";

/**
 * The CI verdict of a run: compare it with its baseline (a group of recent runs, or a pinned one) and
 * grade it against the SLA; it fails on what the project (or the upload's `fail_on`) says fails:
 * "regression" (any metric regressed against the baseline) and/or "sla" (any SLA check failed).
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
  verdict: "pass" | "fail";
  failOn: FailOnValue[];
  /** Why it fails (empty when it passes). */
  reasons: string[];
  comparison: {
    baseline: {
      runs: { id: string; label: string | null; round: number | null; startedAt: string }[];
      how: string;
      pinned: boolean;
      basis: ChosenBaseline["basis"];
    };
    verdict: Verdict;
    kind: string;
    regressions: VerdictRegression[];
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

/** The run a verdict judges: its id, and what picks its baseline. */
export type VerdictHead = RunForBaseline;

type VerdictProject = { id: string; slug: string; defaultBranch: string; minEffectPct: number; alpha: number };

/** The stored run a verdict judges, or the not-found of a run that is not the project's. */
export async function findVerdictHead(db: PrismaClient, projectId: string, runId: string): Promise<VerdictHead> {
  const head = await db.run.findFirst({
    where: { id: runId, projectId },
    select: { id: true, label: true, tool: true, startedAt: true, gitBaseCommit: true, gitBaseBranch: true, gitBaseTime: true },
  });
  if (!head) throw notFound(`Run "${runId}"`);
  return head;
}

/** Judges a run: one read of the run with its baseline runs, one of the SLA policy. */
export async function judgeRun(db: PrismaClient, project: VerdictProject, head: VerdictHead, failOn: FailOnValue[]): Promise<RunVerdict> {
  const baseline = await chooseBaseline(db, project, head);
  // The head with its timelines: the answer carries the whole run, as GET …/runs/{id} does.
  const [loaded, headRun, policy] = await Promise.all([
    loadParsedRuns(db, project.id, baseline.runIds),
    loadParsedRun(db, project.id, head.id, { timelines: true }),
    getSlaPolicy(db, project.id),
  ]);
  if (!headRun) throw notFound(`Run "${head.id}"`);
  // A baseline run driven with another load profile (VUs, rate, concurrency…) measures something else:
  // it is left out, and the baseline's description says so.
  const candidates = baseline.runIds.flatMap((id) => (loaded.has(id) ? [loaded.get(id)!] : []));
  const headConfig = headRun.run.environment.config;
  const differing = candidates.flatMap((run) => {
    const difference = loadProfileDifference(headConfig, run.run.environment.config);
    return difference === null ? [] : [{ id: run.stored.id, difference }];
  });
  const leftOut = new Set(differing.map((entry) => entry.id));
  const baseRuns = candidates.filter((run) => !leftOut.has(run.stored.id));
  const how =
    differing.length === 0
      ? baseline.how
      : `${baseline.how}; ${differing.length} of them left out for another load profile (${differing[0]!.difference}${differing.length > 1 ? ", …" : ""})`;
  const comparison = compareRuns(baseRuns.map(toComparable), [toComparable(headRun)], {
    minEffectPct: project.minEffectPct,
    alpha: project.alpha,
    test: "welch",
  });
  const changed = [...comparison.endpoints, comparison.aggregate].flatMap((endpoint) =>
    endpoint.metrics.filter((metric) => metric.verdict === "regressed" || metric.verdict === "improved").map((metric) => ({ endpoint, metric })),
  );
  const regressions = changed
    .filter(({ metric }) => metric.verdict === "regressed")
    .map(({ endpoint, metric }) => toVerdictRegression(endpoint.name, metric));
  const grade = gradeParsedRun(policy, headRun.run);

  const thresholds = {
    evaluated: headRun.run.thresholds.length,
    failed: headRun.run.thresholds.filter((threshold) => !threshold.passed).map(({ metric, expression }) => ({ metric, expression })),
  };
  const reasons: string[] = [];
  if (failOn.includes("thresholds") && thresholds.failed.length > 0) {
    const listed = thresholds.failed.slice(0, 5).map(({ metric, expression }) => `${metric} ${expression}`);
    const more = thresholds.failed.length > listed.length ? ` and ${thresholds.failed.length - listed.length} more` : "";
    reasons.push(`${thresholds.failed.length} of ${thresholds.evaluated} ${headRun.run.tool} thresholds failed: ${listed.join(", ")}${more}`);
  }
  if (failOn.includes("regression") && regressions.length > 0) {
    reasons.push(`${regressions.length} metric${regressions.length === 1 ? "" : "s"} regressed against the baseline (${how})`);
  }
  if (failOn.includes("sla") && grade?.letter && grade.passed < grade.evaluated) {
    reasons.push(`SLA grade ${grade.letter}: ${grade.evaluated - grade.passed} of ${grade.evaluated} checks failed`);
  }
  const comparePath = baseRuns.length > 0 ? pagePaths.compare(project.slug, { base: baseRuns.map((run) => run.stored.id), head: [head.id] }) : null;
  return {
    verdict: reasons.length > 0 ? "fail" : "pass",
    failOn,
    reasons,
    thresholds,
    comparison: {
      baseline: {
        runs: baseRuns.map(({ run, stored }) => ({ id: stored.id, label: run.label, round: run.round, startedAt: stored.startedAt.toISOString() })),
        how,
        pinned: baseline.pinned,
        basis: baseline.basis,
      },
      verdict: comparison.verdict,
      kind: comparison.kind,
      regressions,
      improvements: changed.length - regressions.length,
      comparePath,
    },
    grade,
    run: headRun,
  };
}

/** The verdict's comparison as the API shows it: absolute links to the baseline runs and the comparison page. */
export function verdictComparison(verdict: RunVerdict, baseUrl: string, projectSlug: string) {
  const { comparison } = verdict;
  return {
    baseline: {
      how: comparison.baseline.how,
      pinned: comparison.baseline.pinned,
      basis: comparison.baseline.basis,
      runs: comparison.baseline.runs.map((run) => ({
        ...run,
        url: runPageUrl(baseUrl, projectSlug, run.id),
      })),
    },
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
  const shared = isPrivate()
    ? {
        run: (await shareLinkFor({ kind: "run", project: project.slug, runId: verdict.run.stored.id }, PR_SHARE_LINK_SECONDS, baseUrl)).url,
        compare:
          comparePath === null
            ? null
            : (
                await shareLinkFor(
                  {
                    kind: "compare",
                    project: project.slug,
                    base: verdict.comparison.baseline.runs.map((baseRun) => baseRun.id).join(","),
                    head: verdict.run.stored.id,
                    tool: null,
                  },
                  PR_SHARE_LINK_SECONDS,
                  baseUrl,
                )
              ).url,
      }
    : null;
  const identity = prCommentIdentity(project.slug, verdict.run.run);
  const markdown = `${renderRunMarkdown(shared ? { ...run, url: shared.run } : run, verdict, baseUrl, shared?.compare)}\n${identity.marker}\n`;
  return {
    run,
    shareLinks: shared,
    fields: {
      verdict: verdict.verdict,
      reasons: verdict.reasons,
      failOn: verdict.failOn,
      thresholds: verdict.thresholds,
      comparison: verdictComparison(verdict, baseUrl, project.slug),
      grade: verdict.grade,
      comment: { ...identity, markdown },
    },
    markdown: () => markdown,
  };
}

/** GET …/runs/{id}/verdict: the verdict of a stored run, `failOn` as given or the project's. */
export async function getRunVerdict(db: PrismaClient, projectSlug: string, runId: string, failOn: FailOnValue[] | null, baseUrl: string) {
  const project = await requireProject(db, projectSlug);
  const head = await findVerdictHead(db, project.id, runId);
  const verdict = await judgeRun(db, project, head, effectiveFailOn(failOn, project.failOn));
  const answer = await verdictAnswer(project, verdict, baseUrl);
  return { json: { id: head.id, ...answer.fields }, markdown: answer.markdown };
}
