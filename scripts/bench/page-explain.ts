import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { AGGREGATE_URL_NAME } from "../../server/domain/run";
import { median } from "../../server/domain/stats/descriptive";
import { PrismaClient } from "../../server/generated/prisma/client";
import { getEndpointTrends } from "../../server/services/trends";
import { getProjectOverview } from "../../server/services/projects";
import { listProjectCards } from "../../server/services/projects";
import { EMPTY_HISTORY_FILTERS } from "../../server/schemas/history";
import { listRunFilterOptions, listRunHistory } from "../../server/services/gate";
import { getRunReport } from "../../server/services/gate";
import { BENCH_PROJECT_SLUG } from "./page-history";
import type { SeededHistory } from "./page-history";

/**
 * Which of the pages' statements are heavy, and whether PostgreSQL answers them from indexes. The
 * services behind each page are called as the pages call them (default filters, range "all") through
 * a Prisma client that logs every statement; each distinct statement is then run again, alone, under
 * EXPLAIN (ANALYZE, BUFFERS). Statements are ranked by that execution time, not by Prisma's logged
 * duration: the services run queries in parallel, so logged durations include waits for a connection.
 */
const REPORTED_STATEMENTS = 5;
/** A sequential scan reading fewer rows than this (the projects or endpoints table) is no finding. */
const LARGE_SCAN_ROWS = 1_000;
const TREND_FLOOR_SAMPLES = 11;
/**
 * How the trend page's history read starts: the whole history of range "all", read once per page scope
 * into the history cache (server/services/trends/trend-history-sql.ts readWholeHistory); later views read only
 * what was appended.
 */
const TREND_QUERY_START = "SELECT (SELECT history_version";

export interface ServiceTiming {
  service: string;
  /** Wall time of the first call (plans, connections and the trend candidate cache cold). */
  coldMs: number;
  /** Wall time of the second call, all its statements included. */
  ms: number;
  statements: number;
}

/**
 * The trend data query against its floor, both timed the same way (median of TREND_FLOOR_SAMPLES runs
 * through one pg connection, rows transferred): the statement the endpoint's trend page sends to read
 * its history (readWholeHistory, the cache's cold read), and the SQL alone reading that endpoint's last 1,000 points on
 * the same index.
 */
export interface TrendFloor {
  trendQueryMs: number;
  floorMs: number;
  trendQueryRows: number;
  floorRows: number;
}

export interface ExplainFinding {
  service: string;
  sql: string;
  executionMs: number;
  planningMs: number;
  /** "Index Scan using results_project_id_endpoint_id_started_at_idx on results", "Seq Scan on runs"… */
  scans: string[];
  sharedHitBlocks: number;
  sharedReadBlocks: number;
  usesIndexes: boolean;
  /** Rows read by sequential scans reading at least LARGE_SCAN_ROWS rows of a table. */
  largeSeqScanRows: number;
}

export interface ExplainReport {
  services: ServiceTiming[];
  trendFloor: TrendFloor | null;
  explainedStatements: number;
  /** The slowest statements by execution time. */
  slowest: ExplainFinding[];
  /** Every statement whose plan reads a large table whole (whatever its rank). */
  largeSeqScans: ExplainFinding[];
}

interface CapturedStatement {
  service: string;
  sql: string;
  params: unknown[];
}

type ServiceCall = [string, (prisma: PrismaClient) => Promise<unknown>];

function serviceCalls(history: SeededHistory): ServiceCall[] {
  const { runId, endpoint, label, branch } = history.sample;
  const trends = (name: string) => (prisma: PrismaClient) =>
    getEndpointTrends(prisma, {
      projectSlug: BENCH_PROJECT_SLUG,
      endpoint: name,
      // Every branch: the page's heaviest read (its default, the default branch alone, reads a subset).
      branches: ["all"],
      label: null,
      range: "all",
    });
  return [
    ["listProjectCards (/)", (prisma) => listProjectCards(prisma)],
    ["getProjectOverview", (prisma) => getProjectOverview(prisma, BENCH_PROJECT_SLUG)],
    ["listRunHistory", (prisma) => listRunHistory(prisma, BENCH_PROJECT_SLUG, { filters: EMPTY_HISTORY_FILTERS })],
    [
      "listRunHistory (label, branch)",
      (prisma) => listRunHistory(prisma, BENCH_PROJECT_SLUG, { filters: { ...EMPTY_HISTORY_FILTERS, label, branch } }),
    ],
    ["listRunFilterOptions", (prisma) => listRunFilterOptions(prisma, history.projectId)],
    ["getRunReport", (prisma) => getRunReport(prisma, BENCH_PROJECT_SLUG, runId)],
    [`getEndpointTrends (${endpoint})`, trends(endpoint)],
    ["getEndpointTrends (_all)", trends(AGGREGATE_URL_NAME)],
  ];
}

async function captureStatements(databaseUrl: string, calls: ServiceCall[]) {
  const prisma = new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl }),
    log: [{ emit: "event", level: "query" }],
  });
  const captured: CapturedStatement[] = [];
  const services: ServiceTiming[] = [];
  let current = "";
  prisma.$on("query", (event) => {
    captured.push({ service: current, sql: event.query, params: JSON.parse(event.params) as unknown[] });
  });
  try {
    for (const [service, call] of calls) {
      current = service;
      // Both calls' statements are kept (distinct ones are explained once): the second call may read
      // from the trend history cache and skip the history query the first one sent.
      const coldStarted = performance.now();
      await call(prisma);
      const coldMs = performance.now() - coldStarted;
      const before = captured.length;
      const started = performance.now();
      await call(prisma);
      services.push({ service, coldMs, ms: performance.now() - started, statements: captured.length - before });
    }
  } finally {
    await prisma.$disconnect();
  }
  return { captured, services };
}

export async function explainPageQueries(databaseUrl: string, history: SeededHistory): Promise<ExplainReport> {
  const { captured, services } = await captureStatements(databaseUrl, serviceCalls(history));
  const distinct = new Map<string, CapturedStatement>();
  for (const statement of captured) if (!distinct.has(statement.sql)) distinct.set(statement.sql, statement);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const findings: ExplainFinding[] = [];
  let trendFloor: TrendFloor | null = null;
  try {
    const trendQuery = captured.find(
      (statement) =>
        statement.service.startsWith(`getEndpointTrends (${history.sample.endpoint}`) &&
        statement.sql.trimStart().startsWith(TREND_QUERY_START),
    );
    if (trendQuery) trendFloor = await measureTrendFloor(client, trendQuery, history);
    for (const statement of distinct.values()) {
      const { rows } = await client.query<{ "QUERY PLAN": PlanRoot[] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`,
        statement.params,
      );
      const root = rows[0]?.["QUERY PLAN"][0];
      if (root) findings.push(summarizePlan(statement, root));
    }
  } finally {
    await client.end();
  }
  findings.sort((a, b) => b.executionMs - a.executionMs);
  return {
    services,
    trendFloor,
    explainedStatements: findings.length,
    slowest: findings.slice(0, REPORTED_STATEMENTS),
    largeSeqScans: findings.filter((finding) => finding.largeSeqScanRows > 0),
  };
}

async function measureTrendFloor(
  client: pg.Client,
  trendQuery: CapturedStatement,
  history: SeededHistory,
): Promise<TrendFloor> {
  const floorSql = `SELECT r.started_at, r.run_id, r.p95_ms FROM results r
    JOIN endpoints e ON e.id = r.endpoint_id AND e.project_id = $1 AND e.name = $2
    WHERE r.project_id = $1 ORDER BY r.started_at DESC LIMIT 1000`;
  const floorParams = [history.projectId, history.sample.endpoint];
  const trendMs: number[] = [];
  const floorMs: number[] = [];
  let trendQueryRows = 0;
  let floorRows = 0;
  // Interleaved, after one untimed run of each, so both see the same cache and load.
  await client.query(trendQuery.sql, trendQuery.params);
  await client.query(floorSql, floorParams);
  for (let sample = 0; sample < TREND_FLOOR_SAMPLES; sample++) {
    let started = performance.now();
    trendQueryRows = (await client.query(trendQuery.sql, trendQuery.params)).rowCount ?? 0;
    trendMs.push(performance.now() - started);
    started = performance.now();
    floorRows = (await client.query(floorSql, floorParams)).rowCount ?? 0;
    floorMs.push(performance.now() - started);
  }
  return { trendQueryMs: median(trendMs) ?? 0, floorMs: median(floorMs) ?? 0, trendQueryRows, floorRows };
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

interface PlanRoot {
  Plan: PlanNode;
  "Planning Time": number;
  "Execution Time": number;
}

function summarizePlan(statement: CapturedStatement, root: PlanRoot): ExplainFinding {
  const scans: string[] = [];
  let largeSeqScanRows = 0;
  const visit = (node: PlanNode) => {
    if (node["Node Type"] === "Seq Scan") {
      const rowsRead =
        ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1);
      if (rowsRead >= LARGE_SCAN_ROWS) largeSeqScanRows += rowsRead;
    }
    if (node["Relation Name"] || node["Index Name"]) {
      const index = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
      const relation = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
      scans.push(`${node["Node Type"]}${index}${relation}`);
    }
    node.Plans?.forEach(visit);
  };
  visit(root.Plan);
  return {
    service: statement.service,
    sql: statement.sql,
    executionMs: root["Execution Time"],
    planningMs: root["Planning Time"],
    scans: [...new Set(scans)],
    sharedHitBlocks: root.Plan["Shared Hit Blocks"] ?? 0,
    sharedReadBlocks: root.Plan["Shared Read Blocks"] ?? 0,
    usesIndexes: scans.some((scan) => scan.includes(" using ")),
    largeSeqScanRows,
  };
}

/** One line per finding for the console. */
export function describeFinding(finding: ExplainFinding): string {
  const access =
    finding.largeSeqScanRows > 0
      ? `SEQ SCAN of ${finding.largeSeqScanRows} rows`
      : finding.usesIndexes
        ? "indexes"
        : "small tables only";
  return (
    `${finding.executionMs.toFixed(2)} ms (+${finding.planningMs.toFixed(2)} planning) ${finding.service}: ${access}; ` +
    `buffers hit ${finding.sharedHitBlocks}, read ${finding.sharedReadBlocks}; ${finding.scans.join("; ")}`
  );
}
