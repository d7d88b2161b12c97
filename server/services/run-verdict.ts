import type { MetricComparison } from "../domain/compare/compare-runs";
import { compareRuns } from "../domain/compare/compare-runs";
import { AGGREGATE_NAME } from "../domain/run";
import type { SlaGrade } from "../domain/sla/grade";
import type { Verdict } from "../domain/stats/verdict";
import type { PrismaClient } from "../generated/prisma/client";
import { chooseBaseline } from "./baselines";
import { toComparable } from "./compare-runs";
import { gradeParsedRun, getSlaPolicy } from "./sla";
import type { LoadedRun } from "./stored-runs";
import { loadParsedRuns } from "./stored-runs";

/**
 * The CI verdict of a run: compare it with its baseline (a group of recent runs, or a pinned one) and
 * grade it against the SLA; it fails on what the project (or the upload's `fail_on`) says fails:
 * "regression" (any metric regressed against the baseline) and/or "sla" (any SLA check failed).
 */
export const FAIL_ON_VALUES = ["regression", "sla"] as const;
export type FailOnValue = (typeof FAIL_ON_VALUES)[number];

/** `fail_on=regression,sla` | `fail_on=none` | absent (the project's setting). */
export function parseFailOn(text: string | null, projectDefault: readonly string[]): FailOnValue[] | { error: string } {
  const source = text === null ? projectDefault.join(",") : text;
  const values = source.split(",").map((value) => value.trim()).filter(Boolean);
  if (values.length === 1 && values[0] === "none") return [];
  const unknown = values.filter((value) => !(FAIL_ON_VALUES as readonly string[]).includes(value));
  if (unknown.length > 0) return { error: `fail_on takes regression, sla or none; not ${unknown.join(", ")}` };
  return [...new Set(values)] as FailOnValue[];
}

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
    baseline: { runs: { id: string; label: string | null; round: number | null; startedAt: string }[]; how: string; pinned: boolean };
    verdict: Verdict;
    kind: string;
    regressions: VerdictRegression[];
    improvements: number;
    /** Path of the comparison page (prefix with the public base URL). */
    comparePath: string | null;
  };
  grade: SlaGrade | null;
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

export async function computeRunVerdict(
  db: PrismaClient,
  project: { id: string; slug: string; defaultBranch: string; minEffectPct: number; alpha: number },
  runId: string,
  failOn: FailOnValue[],
): Promise<RunVerdict | null> {
  const head = await db.run.findFirst({ where: { id: runId, projectId: project.id }, select: { id: true, label: true, startedAt: true } });
  if (!head) return null;
  const baseline = await chooseBaseline(db, project, head);
  const [loaded, policy] = await Promise.all([
    loadParsedRuns(db, project.id, [...baseline.runIds, head.id]),
    getSlaPolicy(db, project.id),
  ]);
  const headRun = loaded.get(head.id)!;
  const baseRuns = baseline.runIds.flatMap((id) => (loaded.has(id) ? [loaded.get(id)!] : []));
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

  const reasons: string[] = [];
  if (failOn.includes("regression") && regressions.length > 0) {
    reasons.push(`${regressions.length} metric${regressions.length === 1 ? "" : "s"} regressed against the baseline (${baseline.how})`);
  }
  if (failOn.includes("sla") && grade?.letter && grade.passed < grade.evaluated) {
    reasons.push(`SLA grade ${grade.letter}: ${grade.evaluated - grade.passed} of ${grade.evaluated} checks failed`);
  }
  const comparePath =
    baseline.runIds.length > 0
      ? `/projects/${encodeURIComponent(project.slug)}/compare?${new URLSearchParams({ base: baseline.runIds.join(","), head: head.id })}`
      : null;
  return {
    verdict: reasons.length > 0 ? "fail" : "pass",
    failOn,
    reasons,
    comparison: {
      baseline: {
        runs: baseRuns.map(({ run, stored }) => ({ id: stored.id, label: run.label, round: run.round, startedAt: stored.startedAt.toISOString() })),
        how: baseline.how,
        pinned: baseline.pinned,
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
      runs: comparison.baseline.runs.map((run) => ({
        ...run,
        url: `${baseUrl}/projects/${encodeURIComponent(projectSlug)}/runs/${encodeURIComponent(run.id)}`,
      })),
    },
    verdict: comparison.verdict,
    kind: comparison.kind,
    regressions: comparison.regressions,
    improvements: comparison.improvements,
    url: comparison.comparePath ? `${baseUrl}${comparison.comparePath}` : null,
  };
}
