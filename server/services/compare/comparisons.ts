import type { ReadDb } from "../../db";
import type { ComparableRun, CompareOptions } from "../../domain/compare/compare-runs";
import { compareRuns, trendValuesSinceChanges } from "../../domain/compare/compare-runs";
import type { SeriesRegimeStart } from "../../domain/compare/compare-runs";
import { AGGREGATE_NAME } from "../../domain/run";
import { NOISE_HISTORY_RUNS } from "../../domain/stats/noise-band";
import { compareDistributions } from "../../domain/compare/distributions";
import type { RunSelector } from "../../domain/compare/selector";
import { describeSelector, MAX_RUNS_PER_SIDE, parseRunSelector } from "../../domain/compare/selector";
import type { SignificanceTest } from "../../domain/stats/verdict";
import { withShareParam } from "../../domain/share";
import { absoluteUrl, apiPaths, pagePaths } from "../../domain/urls";
import type { CompareQuery } from "../../domain/urls";
import type { Prisma } from "../../generated/prisma/client";
import { renderComparisonMarkdown } from "../../domain/report/compare-markdown";
import type { ComparisonResult, ResolvedRun, ResolvedSide } from "../../domain/compare/comparison-result";
import { ServiceError, toServiceError } from "../platform";
import { requireProject } from "../projects";
import { runPageUrl } from "../runs";
import type { LoadedRun } from "../runs";
import { loadParsedRuns } from "../runs";

/**
 * A comparison of two run selections, as the API, the compare page and its preview image show it.
 * Comparisons are URLs, not stored objects: everything here is recomputed from stored runs on each
 * request. `compareProjectRuns` is the one use case every transport calls.
 */
export type { ComparisonResult, ResolvedRun, ResolvedSide } from "../../domain/compare/comparison-result";

/** Run ids a selector names, newest first, at most `last` (and never more than MAX_RUNS_PER_SIDE). */
async function resolveSelector(db: ReadDb, projectId: string, selector: RunSelector, last: number | null, tool: string | null) {
  const take = Math.min(last ?? MAX_RUNS_PER_SIDE, MAX_RUNS_PER_SIDE);
  const bySelector: Prisma.RunWhereInput =
    selector.kind === "ids"
      ? { projectId, id: { in: selector.ids } }
      : selector.kind === "label"
        ? { projectId, label: selector.value }
        : selector.kind === "branch"
          ? { projectId, gitBranch: selector.value }
          : { projectId, gitCommit: { startsWith: selector.value } };
  const where: Prisma.RunWhereInput = tool === null ? bySelector : { ...bySelector, tool };
  return db.run.findMany({
    where,
    select: { id: true, label: true, round: true, startedAt: true, gitBranch: true, gitCommit: true },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take,
  });
}

export function toComparable(loaded: LoadedRun): ComparableRun {
  const known = comparableRuns.get(loaded);
  if (known) return known;
  const comparable = comparableOf(loaded);
  comparableRuns.set(loaded, comparable);
  return comparable;
}

/**
 * One comparable run per loaded run object: the gate's history runs are kept in memory between uploads
 * (runs/run-numbers.ts), so what a comparison derives from a run once (domain/compare/series-history.ts:
 * lazyTrendValues) serves the next uploads of its series too.
 */
const comparableRuns = new WeakMap<LoadedRun, ComparableRun>();

function comparableOf(loaded: LoadedRun): ComparableRun {
  const { run, stored } = loaded;
  return {
    id: stored.id,
    label: run.label,
    round: run.round,
    startedAt: stored.startedAt.toISOString(),
    format: run.format,
    tool: run.tool,
    toolVersion: run.toolVersion,
    protocol: run.aggregate.protocol ?? protocolOf(run.environment.config),
    branch: run.environment.git.branch,
    commit: run.environment.git.commit,
    durationSeconds: run.durationSeconds,
    hostName: run.environment.host.name,
    hostCpus: run.environment.host.cpus,
    hostMemoryGb: run.environment.host.memoryGb,
    testbed: run.environment.testbed,
    appVersion: run.environment.appVersion,
    config: run.environment.config,
    attributes: run.environment.attributes,
    aggregate: run.aggregate,
    endpoints: run.endpoints,
    metrics: run.metrics,
    abPair: stored.abPair ?? null,
  };
}

/** The protocol a run's load configuration states ("protocol": "grpc"), when its results do not. */
function protocolOf(config: Record<string, string | number | boolean>): string | null {
  return typeof config.protocol === "string" ? config.protocol : null;
}

/**
 * For 1 vs 1: the recent runs of the base run's series (same tool and label, on its branch) before it,
 * as the noise history of each (endpoint, metric), oldest first, each since its last known change: a
 * recorded change of that endpoint and metric that was not dismissed, or a change marker (the rule of
 * domain/stats/noise-band.ts, which the trend page's band follows too).
 */
async function noiseHistory(db: ReadDb, projectId: string, base: ComparableRun, branch: string | null) {
  const before = new Date(base.startedAt);
  const previous = await db.run.findMany({
    where: { projectId, gitBranch: branch, label: base.label, tool: base.tool, testbed: base.testbed ?? null, startedAt: { lt: before } },
    select: { id: true, startedAt: true },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: NOISE_HISTORY_RUNS,
  });
  const runIds = previous.map((run) => run.id);
  const [loaded, changes, markers] = await Promise.all([
    loadParsedRuns(db, projectId, runIds),
    db.change.findMany({
      where: { projectId, firstRunId: { in: runIds }, status: { not: "dismissed" } },
      select: { firstRunId: true, metric: true, endpoint: { select: { name: true } } },
    }),
    db.annotation.findMany({ where: { projectId, kind: "change", at: { lte: before } }, select: { at: true } }),
  ]);
  const runs = previous.reverse().flatMap((run) => {
    const parsed = loaded.get(run.id);
    return parsed ? [{ runId: run.id, time: run.startedAt.getTime(), run: parsed.run }] : [];
  });
  const starts: SeriesRegimeStart[] = [
    ...changes.map((change) => ({ endpoint: change.endpoint?.name ?? AGGREGATE_NAME, metric: change.metric, runId: change.firstRunId })),
    ...markers.map((marker) => ({ at: marker.at.getTime() })),
  ];
  return trendValuesSinceChanges(runs, starts, before.getTime());
}

/** Two selections of a project's runs, compared (no side may be empty: see compareProjectRuns). */
async function compareSelections(
  db: ReadDb,
  project: { id: string; minEffectPct: number; alpha: number; gateMetric: string; repoUrl?: string | null },
  request: { base: RunSelector; head: RunSelector; last: number | null; test: SignificanceTest; tool: string | null },
): Promise<ComparisonResult> {
  const [baseRows, headRows] = await Promise.all([
    resolveSelector(db, project.id, request.base, request.last, request.tool),
    resolveSelector(db, project.id, request.head, request.last, request.tool),
  ]);
  const loaded = await loadParsedRuns(db, project.id, [...baseRows, ...headRows].map((run) => run.id));
  const comparableOf = (rows: typeof baseRows) => rows.flatMap((row) => (loaded.has(row.id) ? [toComparable(loaded.get(row.id)!)] : []));
  const baseRuns = comparableOf(baseRows);
  const headRuns = comparableOf(headRows);

  const options: CompareOptions = {
    minEffectPct: project.minEffectPct,
    alpha: project.alpha,
    test: request.test,
    gateMetric: project.gateMetric,
    repoUrl: project.repoUrl ?? null,
  };
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
    distributions: compareDistributions(baseRuns, headRuns),
    options: { minEffectPct: options.minEffectPct, alpha: options.alpha, test: options.test, gateMetric: project.gateMetric },
  };
}

/** What a comparison is asked for, as typed in a URL or a form: the selectors are not parsed yet. */
export interface CompareRequest {
  /** Run ids (a,b,c) or label:<label>, branch:<branch>, commit:<sha>. */
  base: string;
  head: string;
  /** Newest n runs of each selector (capped at MAX_RUNS_PER_SIDE); null: all. */
  last: number | null;
  test: SignificanceTest;
  /** Only runs of this tool on both sides (one series); null: any. */
  tool: string | null;
}

/** A comparison as every transport answers it: the result, its links and its Markdown. */
export interface ProjectComparison extends ComparisonResult {
  project: { slug: string; name: string };
  base: ResolvedSide & { runs: (ResolvedRun & { url: string })[] };
  head: ResolvedSide & { runs: (ResolvedRun & { url: string })[] };
  links: {
    /** The comparison page (absolute): what a pull-request comment links to. */
    page: string;
    /** The same comparison from the REST API, relative to the server. */
    api: string;
    /** The comparison's Open Graph preview image (absolute). */
    image: string;
    perTool: { tool: string; base: number; head: number; url: string }[];
  };
  /** The comparison as a pull-request comment. */
  markdown: string;
}

/**
 * The compare use case: parses both selectors, resolves them in the project, compares, and links the
 * result (run pages, the comparison page, its API and preview image) under `baseUrl`. With `share` (the
 * token of a share link the comparison is read through, or one just minted for it), every link carries
 * it, so the page's Copy link and Copy Markdown open for a reader without a token.
 * Throws: not_found for an unknown project or a selector that matches no run; bad_request (or
 * payload_too_large beyond MAX_RUNS_PER_SIDE ids) for a selector that does not parse.
 */
export async function compareProjectRuns(
  db: ReadDb,
  projectSlug: string,
  request: CompareRequest,
  baseUrl: string,
  { share = null }: { share?: string | null } = {},
): Promise<ProjectComparison> {
  const project = await requireProject(db, projectSlug);
  const selectors = parseSelectors(request);
  const result = await compareSelections(db, project, { ...selectors, last: request.last, test: request.test, tool: request.tool });
  const missing = (["base", "head"] as const).filter((side) => result[side].runs.length === 0);
  if (missing.length > 0) {
    throw new ServiceError(
      "not_found",
      `No runs match the ${missing.join(" and ")} selector.`,
      missing.map((side) => ({ path: side, message: `"${result[side].selector}" matches no run of this project` })),
    );
  }
  const query: CompareQuery = { base: result.base.selector, head: result.head.selector, last: request.last, test: request.test, tool: request.tool };
  const shared = (url: string) => (share === null ? url : withShareParam(url, share));
  const withUrls = (side: ResolvedSide) => ({
    ...side,
    runs: side.runs.map((run) => ({ ...run, url: shared(runPageUrl(baseUrl, project.slug, run.id)) })),
  });
  const page = shared(absoluteUrl(baseUrl, pagePaths.compare(project.slug, query)));
  // Only tools with runs on both sides can be compared alone.
  const perTool = result.comparison.tools.filter((entry) => entry.base > 0 && entry.head > 0).map((entry) => ({
    ...entry,
    url: shared(absoluteUrl(baseUrl, pagePaths.compare(project.slug, { ...query, tool: entry.tool }))),
  }));
  return {
    ...result,
    project: { slug: project.slug, name: project.name },
    base: withUrls(result.base),
    head: withUrls(result.head),
    links: {
      page,
      api: shared(apiPaths.compare(project.slug, query)),
      image: shared(absoluteUrl(baseUrl, pagePaths.compareImage(project.slug, query))),
      /** The same comparison for each tool alone: what to open when the runs mix tools. */
      perTool,
    },
    markdown: renderComparisonMarkdown(result, page, perTool),
  };
}

/**
 * The runs a comparison stands for now, by id, each side newest first: what a share link of it pins
 * (services/sharing/share-links.ts), so the link keeps showing what its sharer saw, and opens those runs' pages.
 * Throws as compareProjectRuns does for a bad selector or a side that matches no run.
 */
export async function resolveComparisonRuns(
  db: ReadDb,
  projectId: string,
  request: Pick<CompareRequest, "base" | "head" | "last" | "tool">,
): Promise<{ base: string[]; head: string[] }> {
  const selectors = parseSelectors(request);
  const [base, head] = await Promise.all(
    (["base", "head"] as const).map(async (side) =>
      (await resolveSelector(db, projectId, selectors[side], request.last, request.tool)).map((run) => run.id),
    ),
  );
  const missing = (["base", "head"] as const).filter((side) => (side === "base" ? base : head)!.length === 0);
  if (missing.length > 0) {
    throw new ServiceError(
      "not_found",
      `No runs match the ${missing.join(" and ")} selector.`,
      missing.map((side) => ({ path: side, message: `"${request[side]}" matches no run of this project` })),
    );
  }
  return { base: base!, head: head! };
}

function parseSelectors(request: Pick<CompareRequest, "base" | "head">): { base: RunSelector; head: RunSelector } {
  try {
    return { base: parseRunSelector(request.base, "base"), head: parseRunSelector(request.head, "head") };
  } catch (error) {
    throw toServiceError(error);
  }
}

/**
 * Labels, branches and tools to pick from when no comparison is chosen yet, with their run counts and
 * newest run (the picker puts the older selection on the base side).
 */
export async function getCompareChoices(db: ReadDb, projectSlug: string) {
  const project = await requireProject(db, projectSlug);
  const [labels, branches, tools] = await Promise.all([
    db.run.groupBy({
      by: ["label"],
      where: { projectId: project.id, label: { not: null } },
      _count: true,
      _max: { startedAt: true },
      orderBy: { label: "asc" },
    }),
    db.run.groupBy({
      by: ["gitBranch"],
      where: { projectId: project.id, gitBranch: { not: null } },
      _count: true,
      _max: { startedAt: true },
      orderBy: { gitBranch: "asc" },
    }),
    db.run.groupBy({ by: ["tool"], where: { projectId: project.id }, _count: true, orderBy: { tool: "asc" } }),
  ]);
  return {
    labels: labels.map((row) => ({ value: row.label!, runs: row._count, latestAt: row._max.startedAt?.toISOString() ?? null })),
    branches: branches.map((row) => ({ value: row.gitBranch!, runs: row._count, latestAt: row._max.startedAt?.toISOString() ?? null })),
    tools: tools.map((row) => ({ value: row.tool, runs: row._count })),
  };
}
