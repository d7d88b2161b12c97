import type { ReadDb } from "../../db";
import {
  buildCapacityCurve,
  describeKnee,
  describeLevels,
  describeSlaLimit,
  slaLatencyLines,
} from "../../domain/capacity/capacity-curve";
import type { CapacityCurve } from "../../domain/capacity/capacity-curve";
import type { CapacityRunResult } from "../../domain/capacity/levels";
import { LOAD_LEVEL_KEYS, chooseLoadKey, loadKeysOf, loadLevelOf } from "../../domain/capacity/load-level";
import type { LoadLevelKey } from "../../domain/capacity/load-level";
import { describeSelector, parseRunSelector } from "../../domain/compare/selector";
import type { RunSelector } from "../../domain/compare/selector";
import { AGGREGATE_NAME } from "../../domain/run";
import type { CustomMetric, EndpointResult } from "../../domain/run";
import { parseMetric } from "../../domain/sla/policy";
import type { SlaPolicy } from "../../domain/sla/policy";
import { Prisma } from "../../generated/prisma/client";
import { endpointCondition, listEndpoints, resolveEndpointPage } from "./endpoint-page";
import type { EndpointPageQuery } from "./endpoint-page";
import { toServiceError } from "../platform";
import { getSlaPolicy } from "../runs";

/**
 * The capacity page's data (docs/statistics.md, "Capacity"): an endpoint's (or the run aggregate's) runs
 * of one series (tool and label) at their load levels, as one curve, or as two (base and head: any two
 * run selectors, `branch:main` against `branch:feature-x`), each with its knee and SLA limit.
 *
 * Reads follow the indexes: each curve is one statement over results (project_id, endpoint_id,
 * started_at DESC) joined to its runs by primary key (the newest MAX_CURVE_RUNS); the series on offer
 * is one statement over the endpoint's newest SERIES_SCAN_RESULTS results; custom metrics are read, by
 * run id, only when an SLA target needs them. No query per run.
 */
export const MAX_CURVE_RUNS = 1000;
const SERIES_SCAN_RESULTS = 2000;

export interface CapacityQuery extends EndpointPageQuery {
  /** The series' tool; null: the default series (see chooseSeries). */
  tool?: string | null;
  /** The series' label; undefined: the default one for the tool; null: runs without a label. */
  label?: string | null;
  /** Run selectors (`branch:main`, `label:v2`, `commit:9f1c`, `a,b,c`); both: two curves on one chart. */
  base?: string | null;
  head?: string | null;
  /** The load-level key; null: the one the runs vary (chooseLoadKey). */
  load?: LoadLevelKey | null;
}

export interface SeriesOption {
  tool: string;
  label: string | null;
  /** Runs of the series among the endpoint's newest SERIES_SCAN_RESULTS. */
  runs: number;
  /** Distinct load levels of its most varied load key. */
  levels: number;
}

interface CurveRow {
  runId: string;
  startedAt: Date;
  branch: string | null;
  config: Record<string, string | number | boolean>;
  requests: number | null;
  failures: number | null;
  throughput: number | null;
  minMs: number | null;
  meanMs: number | null;
  maxMs: number | null;
  percentiles: Record<string, number>;
}

export async function getCapacity(db: ReadDb, query: CapacityQuery) {
  const page = await resolveEndpointPage(db, query);
  const { project, endpointId, endpoint } = page;
  const isAggregate = endpoint.isAggregate;
  const sides = parseSides(query);

  const [seriesOptions, policy, endpoints] = await Promise.all([
    findSeriesOptions(db, project.id, endpointId),
    getSlaPolicy(db, project.id),
    listEndpoints(db, project.id),
  ]);
  const series = chooseSeries(seriesOptions, query.tool ?? null, query.label);
  const name = isAggregate ? AGGREGATE_NAME : endpoint.name;

  const rowsBySide = series
    ? await Promise.all(sides.map((side) => readCurveRows(db, project.id, endpointId, series, side.selector)))
    : sides.map(() => []);
  const metrics = needsCustomMetrics(policy, isAggregate)
    ? await readCustomMetrics(
        db,
        endpointId,
        rowsBySide.flat().map((row) => row.runId),
      )
    : new Map<string, Record<string, CustomMetric>>();

  const allConfigs = rowsBySide.flat().map((row) => row.config);
  const loadKeys = loadKeysOf(allConfigs);
  const loadKey = chooseLoadKey(allConfigs, query.load ?? null)?.key ?? null;
  const curves = sides.map((side, index) => {
    const rows = rowsBySide[index]!;
    const runs = rows.map((row) => toCapacityRun(row, name, endpoint, metrics.get(row.runId) ?? {}));
    const curve: CapacityCurve | null =
      loadKey === null ? null : buildCapacityCurve(runs, loadKey, policy, isAggregate);
    return {
      side: side.side,
      selector: side.selector === null ? null : describeSelector(side.selector),
      runCount: rows.length,
      isTruncated: rows.length === MAX_CURVE_RUNS,
      /** Runs that state no level for the load key: not drawn. */
      withoutLevel:
        loadKey === null ? rows.length : rows.filter((row) => loadLevelOf(row.config, loadKey) === null).length,
      branches: [...new Set(rows.map((row) => row.branch).filter((branch) => branch !== null))].sort(),
      curve,
      caption:
        curve === null || loadKey === null
          ? null
          : {
              levels: describeLevels(curve),
              knee: describeKnee(curve, loadKey),
              sla: describeSlaLimit(curve, loadKey),
            },
    };
  });

  return {
    project: { slug: project.slug, name: project.name },
    endpoint,
    endpoints,
    /** The series drawn; null when the endpoint has no runs. */
    series,
    seriesOptions,
    loadKey,
    loadKeys,
    isComparison: sides.length === 2,
    curves,
    slaLines: slaLatencyLines(policy, name, isAggregate),
  };
}

export type Capacity = Awaited<ReturnType<typeof getCapacity>>;

type Side = { side: "base" | "head" | "all"; selector: RunSelector | null };

/** Both selectors: two curves; one: one curve of those runs; none: the whole series. A bad selector is a bad_request. */
function parseSides(query: CapacityQuery): Side[] {
  const parse = (text: string | null | undefined, path: "base" | "head") => {
    if (text === null || text === undefined || text.trim() === "") return null;
    try {
      return parseRunSelector(text, path);
    } catch (error) {
      throw toServiceError(error);
    }
  };
  const base = parse(query.base, "base");
  const head = parse(query.head, "head");
  if (base && head)
    return [
      { side: "base", selector: base },
      { side: "head", selector: head },
    ];
  return [{ side: "all", selector: base ?? head }];
}

/**
 * The series drawn: the tool and label asked for, else the newest series (among the options, which come
 * newest first) that has 3 or more load levels, else the newest series. A label asked without a tool
 * takes the newest tool that has it.
 */
function chooseSeries(options: readonly SeriesOption[], tool: string | null, label: string | null | undefined) {
  const matching = options.filter(
    (option) => (tool === null || option.tool === tool) && (label === undefined || option.label === label),
  );
  const chosen = matching.find((option) => option.levels >= 3) ?? matching[0];
  if (chosen) return { tool: chosen.tool, label: chosen.label };
  // Asked for a series this endpoint has no runs of: draw nothing, say so.
  return tool === null ? null : { tool, label: label ?? null };
}

/** Every (tool, label) of the endpoint's newest results, newest first, with its run count and load levels. */
async function findSeriesOptions(
  db: ReadDb,
  projectId: string,
  endpointId: number | null,
): Promise<SeriesOption[]> {
  const levelCounts = Prisma.join(
    LOAD_LEVEL_KEYS.map((key) => Prisma.sql`count(DISTINCT ru.config->>${key})`),
    ", ",
  );
  const rows = await db.$queryRaw<{ tool: string; label: string | null; runs: number; levels: number }[]>`
    WITH recent AS (
      SELECT r.run_id, r.started_at FROM results r
       WHERE r.project_id = ${projectId} AND ${endpointCondition(endpointId)}
       ORDER BY r.started_at DESC LIMIT ${SERIES_SCAN_RESULTS}
    )
    SELECT ru.tool, ru.label, count(*)::int AS runs, greatest(${levelCounts})::int AS levels
      FROM recent JOIN runs ru ON ru.id = recent.run_id
     GROUP BY ru.tool, ru.label
     ORDER BY max(recent.started_at) DESC, ru.tool, ru.label`;
  return rows;
}

/** The run condition of a curve: the series' label (unless the selector names a label or run ids) and the selector. */
function sideCondition(label: string | null, selector: RunSelector | null): Prisma.Sql {
  const byLabel = label === null ? Prisma.sql`ru.label IS NULL` : Prisma.sql`ru.label = ${label}`;
  if (selector === null) return byLabel;
  switch (selector.kind) {
    case "ids":
      return Prisma.sql`ru.id IN (${Prisma.join(selector.ids)})`;
    case "label":
      return Prisma.sql`ru.label = ${selector.value}`;
    case "branch":
      return Prisma.sql`${byLabel} AND ru.git_branch = ${selector.value}`;
    case "commit":
      return Prisma.sql`${byLabel} AND starts_with(ru.git_commit, ${selector.value})`;
  }
}

/** One curve's runs, newest first (at most MAX_CURVE_RUNS): the endpoint's result with its run's config. */
async function readCurveRows(
  db: ReadDb,
  projectId: string,
  endpointId: number | null,
  series: { tool: string; label: string | null },
  selector: RunSelector | null,
): Promise<CurveRow[]> {
  return db.$queryRaw<CurveRow[]>`
    SELECT r.run_id AS "runId", r.started_at AS "startedAt", ru.git_branch AS branch, ru.config,
           r.requests, r.failures, r.throughput, r.min_ms AS "minMs", r.mean_ms AS "meanMs", r.max_ms AS "maxMs",
           r.percentiles
      FROM results r JOIN runs ru ON ru.id = r.run_id
     WHERE r.project_id = ${projectId} AND ${endpointCondition(endpointId)}
       AND ru.tool = ${series.tool} AND ${sideCondition(series.label, selector)}
     ORDER BY r.started_at DESC, r.run_id DESC
     LIMIT ${MAX_CURVE_RUNS}`;
}

/** Whether an SLA target that applies here reads a custom metric (CPU %, memory): only then are metrics read. */
function needsCustomMetrics(policy: SlaPolicy | null, isAggregate: boolean): boolean {
  return (policy?.targets ?? []).some(
    (target) => (target.scope === "aggregate") === isAggregate && parseMetric(target.metric).kind === "custom",
  );
}

/** Custom metrics of the endpoint (for the aggregate: the run's) in these runs, by run id; one statement. */
async function readCustomMetrics(db: ReadDb, endpointId: number | null, runIds: readonly string[]) {
  const byRun = new Map<string, Record<string, CustomMetric>>();
  if (runIds.length === 0) return byRun;
  const rows = await db.metric.findMany({
    where: { runId: { in: [...new Set(runIds)] }, endpointId },
    select: { runId: true, key: true, value: true, unit: true, better: true },
  });
  for (const row of rows) {
    byRun.set(row.runId, {
      ...byRun.get(row.runId),
      [row.key]: { value: row.value, unit: row.unit, better: row.better },
    });
  }
  return byRun;
}

function toCapacityRun(
  row: CurveRow,
  name: string,
  endpoint: { fullName: string | null; protocol: string | null },
  metrics: Record<string, CustomMetric>,
): CapacityRunResult {
  const result: EndpointResult = {
    name,
    fullName: endpoint.fullName,
    protocol: endpoint.protocol,
    method: null,
    requests: row.requests,
    failures: row.failures,
    throughput: row.throughput,
    latency: { minMs: row.minMs, meanMs: row.meanMs, maxMs: row.maxMs, stdDevMs: null, percentiles: row.percentiles },
    histogram: null,
    statusCodes: null,
    errors: null,
    metrics,
    timeline: null,
  };
  return { runId: row.runId, startedAt: new Date(row.startedAt).toISOString(), config: row.config, result };
}
