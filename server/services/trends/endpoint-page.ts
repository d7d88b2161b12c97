import type { ReadDb } from "../../db";
/**
 * What a per-endpoint page asks for, resolved once for every such page (the trend page, the capacity
 * page): the project, the endpoint (or the run aggregate, "_all") with the same not-found for an
 * unknown one, the endpoint as the answer describes it, the project's endpoints the page's switcher
 * offers, and the SQL condition that selects the endpoint's results. For the trend page, also which of
 * its runs make the history: the tool, branch and time range (`resolveTrendScope`).
 */
import { AGGREGATE_URL_NAME, NO_TESTBED } from "../../domain/run";
import { branchFilterOf, overlayBaseBranch } from "../../domain/series/trend-branches";
import type { TrendBranches } from "../../domain/series/trend-branches";
import { rangeStart } from "../../domain/series/trend-series";
import type { TrendRange } from "../../domain/series/trend-series";
import { Prisma } from "../../generated/prisma/client";
import { notFound } from "../platform";

export interface EndpointPageQuery {
  projectSlug: string;
  /** The endpoint's name (decoded), or AGGREGATE_URL_NAME for the run aggregate. */
  endpoint: string;
  /**
   * The endpoint's protocol (its identity is name and protocol). Null or absent: the only endpoint of that
   * name, or, when several protocols share it, the one measured most recently (the page offers the others).
   */
  protocol?: string | null;
}

type EndpointPage = Awaited<ReturnType<typeof resolveEndpointPage>>;

/** The project and endpoint a page is about; not_found for an unknown project or endpoint. */
export async function resolveEndpointPage(db: ReadDb, query: EndpointPageQuery) {
  const project = await db.project.findUnique({
    where: { slug: query.projectSlug },
    // historyVersion: what the trend page's history cache checks (trend-history-cache.ts).
    select: { id: true, slug: true, name: true, defaultBranch: true, historyVersion: true, minEffectPct: true, gateMetric: true },
  });
  if (!project) throw notFound(`Project "${query.projectSlug}"`);

  const isAggregate = query.endpoint === AGGREGATE_URL_NAME;
  const endpoint = isAggregate ? null : await findEndpoint(db, project.id, query.endpoint, query.protocol ?? null);
  if (!isAggregate && !endpoint) {
    throw notFound(`Endpoint "${query.endpoint}"${query.protocol ? ` (${query.protocol})` : ""}`);
  }
  return {
    project,
    /** Null: the run aggregate. */
    endpointId: endpoint?.id ?? null,
    /** The endpoint as a page's answer describes it. */
    endpoint: {
      /** The URL name: the endpoint's name, or "_all". */
      name: endpoint?.name ?? AGGREGATE_URL_NAME,
      isAggregate,
      fullName: endpoint?.fullName ?? null,
      protocol: endpoint?.protocol ?? null,
    },
  };
}

/**
 * The endpoint of this name and protocol; without a protocol, the only endpoint of that name or, when
 * several protocols share the name, the one with the most recent result.
 */
async function findEndpoint(db: ReadDb, projectId: string, name: string, protocol: string | null) {
  const select = { id: true, name: true, fullName: true, protocol: true } as const;
  if (protocol !== null) return db.endpoint.findFirst({ where: { projectId, name, protocol }, select });
  const candidates = await db.endpoint.findMany({ where: { projectId, name }, select });
  if (candidates.length <= 1) return candidates[0] ?? null;
  const latest = await db.result.findFirst({
    where: { projectId, endpointId: { in: candidates.map((candidate) => candidate.id) } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    select: { endpointId: true },
  });
  return candidates.find((candidate) => candidate.id === latest?.endpointId) ?? candidates[0]!;
}

/** Every endpoint of the project, by name then protocol (a name may have several): the page's switcher. */
export function listEndpoints(db: ReadDb, projectId: string) {
  return db.endpoint.findMany({
    where: { projectId },
    select: { name: true, protocol: true },
    orderBy: [{ name: "asc" }, { protocol: "asc" }],
  });
}

/** `r.endpoint_id = $n`, or `IS NULL` for the run aggregate: the endpoint's rows of results or metrics (alias `r`). */
export function endpointCondition(endpointId: number | null): Prisma.Sql {
  return endpointId === null ? Prisma.sql`r.endpoint_id IS NULL` : Prisma.sql`r.endpoint_id = ${endpointId}`;
}

/** Which rows of results or metrics (alias `r`) make the trend page's history: project, endpoint, range, run filters. */
export interface HistoryScope {
  projectId: string;
  /** Null: the run aggregate (results), or run-level metrics. */
  endpointId: number | null;
  since: Date | null;
  /** The branches whose runs make the history (null in it: the runs naming none); null: every run (trend-branches.ts). */
  branches: readonly (string | null)[] | null;
  label: string | null;
  /** Null: every tool (tool=all). */
  tool: string | null;
  /** One testbed's runs ({name: null}: the runs that name none); absent: every testbed (testbed=all). */
  testbed?: { name: string | null };
}


/** `tool=all`: every tool's runs on one chart, as asked. */
const ALL_TOOLS = "all";

export interface TrendScopeQuery {
  /** The branches drawn, resolved from the URL and the project (server/domain/series/trend-branches.ts). */
  branches: TrendBranches;
  label: string | null;
  /**
   * One tool's runs (runs of different tools are different series); "all" for every tool; null for
   * the default, the tool of the endpoint's latest run.
   */
  tool?: string | null;
  /**
   * One testbed's runs (runs on different hardware are different series: docs/benchmarks.md); "all" for
   * every testbed, "none" for the runs that name none; null for the default, the latest run's testbed.
   */
  testbed?: string | null;
  range: TrendRange;
  /** The clock the range counts back from; tests pin it. */
  now?: Date;
  /** Whether a branch's or a pull request's runs are drawn over the base branch's series. */
  hasOverlay: boolean;
}

/**
 * `column = $1`, `column IN ($1, …)`, with `OR column IS NULL` when the runs naming no branch are asked;
 * nothing for every branch. Equality and IN (never IS NOT DISTINCT FROM), so the planner estimates them.
 */
export function branchCondition(column: Prisma.Sql, branches: readonly (string | null)[] | null): Prisma.Sql {
  if (branches === null) return Prisma.empty;
  const named = branches.filter((branch): branch is string => branch !== null);
  const hasNone = named.length < branches.length;
  const equal =
    named.length === 0 ? null : named.length === 1 ? Prisma.sql`${column} = ${named[0]}` : Prisma.sql`${column} IN (${Prisma.join(named)})`;
  if (!hasNone) return Prisma.sql`AND ${equal!}`;
  return equal === null ? Prisma.sql`AND ${column} IS NULL` : Prisma.sql`AND (${equal} OR ${column} IS NULL)`;
}

/** The trend page's history: the endpoint's runs of one tool (or all), in the range, on the branch and label asked. */
export async function resolveTrendScope(
  db: ReadDb,
  page: Pick<EndpointPage, "project" | "endpointId">,
  query: TrendScopeQuery,
): Promise<HistoryScope> {
  const { project, endpointId } = page;
  const requestedTool = query.tool ?? null;
  const requestedTestbed = query.testbed ?? null;
  const latest = requestedTool === null || requestedTestbed === null ? await latestSeries(db, project.id, endpointId) : null;
  const tool = requestedTool === ALL_TOOLS ? null : (requestedTool ?? latest?.tool ?? null);
  const testbed =
    requestedTestbed === ALL_TOOLS
      ? undefined
      : requestedTestbed === NO_TESTBED
        ? { name: null }
        : requestedTestbed !== null
          ? { name: requestedTestbed }
          : latest
            ? { name: latest.testbed }
            : undefined;
  return {
    projectId: project.id,
    endpointId,
    since: rangeStart(query.range, query.now ?? new Date()),
    // An overlay is drawn over one branch: the page's first, else the default branch (never every branch,
    // which would count the overlay's own runs in the base).
    branches: query.hasOverlay ? [overlayBaseBranch(query.branches, project.defaultBranch)] : branchFilterOf(query.branches),
    label: query.label,
    tool,
    ...(testbed ? { testbed } : {}),
  };
}

/** The tool and testbed of the endpoint's (or the aggregate's) latest run: the default series of its trend page. */
async function latestSeries(db: ReadDb, projectId: string, endpointId: number | null): Promise<{ tool: string; testbed: string | null } | null> {
  // endpoint_id leads the ORDER BY though it is fixed: PostgreSQL 15 does not take "IS NULL" (the
  // aggregate) as fixing the column, and without it sorted the aggregate's whole history (40 ms at
  // 48,000 runs) instead of reading the head of results_history_idx.
  const rows = await db.$queryRaw<{ tool: string; testbed: string | null }[]>`
    SELECT ru.tool, ru.testbed FROM results r JOIN runs ru ON ru.id = r.run_id
     WHERE r.project_id = ${projectId} AND ${endpointCondition(endpointId)}
     ORDER BY r.endpoint_id, r.started_at DESC, r.run_id DESC LIMIT 1`;
  return rows[0] ?? null;
}

/** How many testbeds the trend page's select offers. */
export const TESTBED_OPTIONS = 20;

/** The testbeds of the endpoint's (or the aggregate's) runs of a tool, most used first (at most TESTBED_OPTIONS). */
export async function listTestbeds(db: ReadDb, projectId: string, endpointId: number | null, tool: string | null): Promise<{ testbed: string | null; runs: number }[]> {
  return db.$queryRaw<{ testbed: string | null; runs: number }[]>`
    SELECT ru.testbed, count(*)::int AS runs FROM results r JOIN runs ru ON ru.id = r.run_id
     WHERE r.project_id = ${projectId} AND ${endpointCondition(endpointId)}
       ${tool !== null ? Prisma.sql`AND ru.tool = ${tool}` : Prisma.empty}
     GROUP BY ru.testbed ORDER BY runs DESC, ru.testbed LIMIT ${TESTBED_OPTIONS}`;
}
