import type { ComparableRun, Comparison, CompareOptions } from "../domain/compare/compare-runs";
import { compareRuns, historyKey } from "../domain/compare/compare-runs";
import { customMetricSpecs, STANDARD_METRICS } from "../domain/compare/metrics";
import type { RunSelector } from "../domain/compare/selector";
import { describeSelector, MAX_RUNS_PER_SIDE } from "../domain/compare/selector";
import { AGGREGATE_NAME } from "../domain/run";
import type { SignificanceTest } from "../domain/stats/verdict";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { LoadedRun } from "./stored-runs";
import { loadParsedRuns } from "./stored-runs";

/**
 * A comparison of two run selections, as the API and the compare page show it. Comparisons are URLs,
 * not stored objects: everything here is recomputed from stored runs on each request.
 */
const NOISE_HISTORY_RUNS = 20;

export interface ResolvedSide {
  selector: string;
  runs: { id: string; label: string | null; round: number | null; startedAt: Date; branch: string | null; commit: string | null }[];
}

export interface ComparisonResult {
  base: ResolvedSide;
  head: ResolvedSide;
  comparison: Comparison;
  options: { minEffectPct: number; alpha: number; test: SignificanceTest };
  /** Per-round table: each run's p95/p50… is in comparison.*.metrics[].base/head.values with runIds. */
}

/** Run ids a selector names, newest first, at most `last` (and never more than MAX_RUNS_PER_SIDE). */
async function resolveSelector(db: PrismaClient, projectId: string, selector: RunSelector, last: number | null) {
  const take = Math.min(last ?? MAX_RUNS_PER_SIDE, MAX_RUNS_PER_SIDE);
  const where: Prisma.RunWhereInput =
    selector.kind === "ids"
      ? { projectId, id: { in: selector.ids } }
      : selector.kind === "label"
        ? { projectId, label: selector.value }
        : selector.kind === "branch"
          ? { projectId, gitBranch: selector.value }
          : { projectId, gitCommit: { startsWith: selector.value } };
  return db.run.findMany({
    where,
    select: { id: true, label: true, round: true, startedAt: true, gitBranch: true, gitCommit: true },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take,
  });
}

export function toComparable(loaded: LoadedRun): ComparableRun {
  const { run, stored } = loaded;
  return {
    id: stored.id,
    label: run.label,
    round: run.round,
    startedAt: stored.startedAt.toISOString(),
    tool: run.tool,
    durationSeconds: run.durationSeconds,
    hostName: run.environment.host.name,
    config: run.environment.config,
    aggregate: run.aggregate,
    endpoints: run.endpoints,
    metrics: run.metrics,
  };
}

/**
 * For 1 vs 1: the same label's recent runs on the base run's branch before it, as the noise history
 * of each (endpoint, metric), oldest first.
 */
async function noiseHistory(db: PrismaClient, projectId: string, base: ComparableRun, branch: string | null) {
  const previous = await db.run.findMany({
    where: { projectId, gitBranch: branch, label: base.label, startedAt: { lt: new Date(base.startedAt) } },
    select: { id: true },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: NOISE_HISTORY_RUNS,
  });
  const loaded = await loadParsedRuns(db, projectId, previous.map((run) => run.id));
  const runs = previous.reverse().flatMap((run) => (loaded.has(run.id) ? [loaded.get(run.id)!.run] : []));
  const history = new Map<string, number[]>();
  const add = (endpoint: string, metric: string, value: number | null) => {
    if (value === null || !Number.isFinite(value)) return;
    const key = historyKey(endpoint, metric);
    history.set(key, [...(history.get(key) ?? []), value]);
  };
  for (const run of runs) {
    const aggregate = { ...run.aggregate, metrics: { ...run.aggregate.metrics, ...run.metrics } };
    for (const spec of [...STANDARD_METRICS, ...customMetricSpecs([aggregate.metrics])]) {
      add(AGGREGATE_NAME, spec.metric, spec.read(aggregate));
    }
    for (const endpoint of run.endpoints) {
      for (const spec of [...STANDARD_METRICS, ...customMetricSpecs([endpoint.metrics])]) {
        add(endpoint.name, spec.metric, spec.read(endpoint));
      }
    }
  }
  return history;
}

export async function compareSelections(
  db: PrismaClient,
  project: { id: string; minEffectPct: number; alpha: number },
  request: { base: RunSelector; head: RunSelector; last: number | null; test: SignificanceTest },
): Promise<ComparisonResult> {
  const [baseRows, headRows] = await Promise.all([
    resolveSelector(db, project.id, request.base, request.last),
    resolveSelector(db, project.id, request.head, request.last),
  ]);
  const loaded = await loadParsedRuns(db, project.id, [...baseRows, ...headRows].map((run) => run.id));
  const comparableOf = (rows: typeof baseRows) => rows.flatMap((row) => (loaded.has(row.id) ? [toComparable(loaded.get(row.id)!)] : []));
  const baseRuns = comparableOf(baseRows);
  const headRuns = comparableOf(headRows);

  const options: CompareOptions = { minEffectPct: project.minEffectPct, alpha: project.alpha, test: request.test };
  if (baseRuns.length === 1 && headRuns.length === 1) {
    options.history = await noiseHistory(db, project.id, baseRuns[0]!, baseRows[0]!.gitBranch);
  }
  const side = (selector: RunSelector, rows: typeof baseRows): ResolvedSide => ({
    selector: describeSelector(selector),
    runs: rows.map((row) => ({
      id: row.id,
      label: row.label,
      round: row.round,
      startedAt: row.startedAt,
      branch: row.gitBranch,
      commit: row.gitCommit,
    })),
  });
  return {
    base: side(request.base, baseRows),
    head: side(request.head, headRows),
    comparison: compareRuns(baseRuns, headRuns, options),
    options: { minEffectPct: options.minEffectPct, alpha: options.alpha, test: options.test },
  };
}
