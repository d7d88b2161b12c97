import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../server/db";
import { refreshRollups } from "../../server/services/trends";
import type { DatabaseTarget } from "../../server/db";
import { keptPostgres, prepareEmbedded, preparePostgres } from "./backends";
import type { Backend, BackendKind } from "./backends";
import { summarizeLatencies } from "./http";
import { explainPageQueries } from "./page-explain";
import type { ExplainReport } from "./page-explain";
import { firstViewRow, logExplain, PAGE_BUDGET_MS, printFirstViews, printTable, tableRow } from "./pages-report";
import type { FirstViewFigure, PageBenchResult, PageFigure } from "./pages-report";
import { BENCH_PROJECT_SLUG, readSeededHistory, seedPageHistory } from "./page-history";
import type { HistorySize, SeededHistory } from "./page-history";
import { startServer } from "./server";
import { describeZoomedOutFloor, measureZoomedOutFloors } from "./zoomed-out-floor";
import type { ZoomedOutFloor } from "./zoomed-out-floor";
import type { BenchServer } from "./server";

/**
 * The page benchmark: "with 5,000 runs × 20 endpoints seeded, each page's server response stays under
 * 300 ms" — measured, not asserted. Per backend: seed a synthetic history into a fresh database
 * (page-history.ts), explain the pages' slowest statements on PostgreSQL (page-explain.ts), start the
 * production server on it, warm each page once (its time is reported as "first"), then time sequential
 * GETs of its HTML to the last byte.
 * A page that answers anything but 200 (not built yet: 404; broken: 500) is reported by its status.
 */
export interface PageBenchOptions extends HistorySize {
  /** Timed GETs per page, after one warm-up GET. */
  samples: number;
}

export const PAGE_BENCH_DEFAULTS: PageBenchOptions = { runs: 5_000, endpoints: 20, samples: 20 };
/** Uploads the "first view after an upload" measurement times the trend pages after (one more, untimed, first). */
export const FIRST_VIEW_UPLOADS = 10;
/** The admin token of the page bench's server: the first-view measurement uploads through the API. */
const PAGE_BENCH_ADMIN_TOKEN = "benchtrack-page-bench-admin-secret";
/** The trend pages the first-view measurement times (endpoint and aggregate). */
const TREND_PAGES = new Set(["endpoint trends", "aggregate trends"]);

export function benchedPages(history: SeededHistory): { page: string; path: string }[] {
  const project = `/projects/${BENCH_PROJECT_SLUG}`;
  const { runId, endpoint, label, branch } = history.sample;
  const filters = new URLSearchParams({ label, branch }).toString();
  return [
    { page: "home", path: "/" },
    { page: "project overview", path: project },
    { page: "run history", path: `${project}/runs` },
    { page: "run history, filtered", path: `${project}/runs?${filters}` },
    { page: "run report", path: `${project}/runs/${runId}` },
    { page: "endpoint trends", path: `${project}/endpoints/${encodeURIComponent(endpoint)}` },
    { page: "aggregate trends", path: `${project}/endpoints/_all` },
  ];
}

/** One GET to the last byte of the body; redirects are not followed (a redirect is reported as such). */
async function timedGet(url: string): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(60_000) });
  const body = await response.arrayBuffer();
  return { status: response.status, bytes: body.byteLength, ms: performance.now() - started };
}

export async function measurePages(baseUrl: string, pages: { page: string; path: string }[], samples: number) {
  const figures: PageFigure[] = [];
  for (const { page, path: pagePath } of pages) {
    const url = `${baseUrl}${pagePath}`;
    // The warm-up loads the route's code and fills connection pools; a page that fails is not timed.
    const warm = await timedGet(url);
    const figure: PageFigure = {
      page,
      path: pagePath,
      status: warm.status,
      bytes: warm.bytes,
      firstMs: Math.round(warm.ms * 10) / 10,
      p50Ms: null,
      p95Ms: null,
      maxMs: null,
      samplesMs: [],
    };
    if (warm.status === 200) {
      for (let sample = 0; sample < samples; sample++) {
        const answer = await timedGet(url);
        if (answer.status !== 200) {
          figure.status = answer.status;
          break;
        }
        figure.samplesMs.push(Math.round(answer.ms * 10) / 10);
      }
      const summary = figure.status === 200 ? summarizeLatencies(figure.samplesMs) : null;
      if (summary) Object.assign(figure, { p50Ms: summary.p50Ms, p95Ms: summary.p95Ms, maxMs: summary.maxMs });
    }
    figures.push(figure);
  }
  return figures;
}

/**
 * The run CI would upload next: every endpoint of the seeded project (protocol "http", so the same
 * series), k6, on the default branch, started a minute ago (after every seeded run).
 */
function nextRunDocument(history: SeededHistory, index: number) {
  const latency = (k: number) => ({ unit: "ms", mean: 10 + k, p50: 9 + k, p90: 14 + k, p95: 17 + k + (index % 3), p99: 25 + k, max: 60 + k });
  return {
    schema: "benchtrack/v1",
    tool: "k6",
    label: "nightly",
    startedAt: new Date(Date.now() - 60_000).toISOString(),
    environment: { git: { branch: "main", commit: `f1257e${String(index).padStart(6, "0")}` } },
    endpoints: history.endpointNames.map((name, k) => ({ name, protocol: "http", requests: 6_000, failures: 3, throughput: 100, latency: latency(k) })),
    summary: { requests: 6_000 * history.endpointNames.length, failures: 3 * history.endpointNames.length, throughput: 100 * history.endpointNames.length, latency: latency(0) },
  };
}

async function uploadNextRun(baseUrl: string, history: SeededHistory, index: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/projects/${BENCH_PROJECT_SLUG}/runs?format=benchtrack`, {
    method: "POST",
    headers: { authorization: `Bearer ${PAGE_BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(nextRunDocument(history, index)),
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/**
 * The first view of each trend page after an upload: upload the next run through the API as CI would,
 * then time the next GET of each page (both are first views after that upload: each page's history
 * moved). One untimed upload and view first: the default series is the newest run's tool and testbed,
 * which the first upload may change.
 */
export async function measureFirstViews(
  baseUrl: string,
  pages: { page: string; path: string }[],
  history: SeededHistory,
  uploads: number,
): Promise<FirstViewFigure[]> {
  const figures: FirstViewFigure[] = pages.map(({ page, path: pagePath }) => ({
    page,
    path: pagePath,
    status: 200,
    p50Ms: null,
    p95Ms: null,
    maxMs: null,
    samplesMs: [],
    uploadP50Ms: null,
  }));
  const uploadMs: number[] = [];
  for (let index = 0; index <= uploads; index++) {
    const upload = await uploadNextRun(baseUrl, history, index);
    if (upload.status !== 201) {
      for (const figure of figures) figure.status = upload.status;
      break;
    }
    if (index > 0) uploadMs.push(Math.round(upload.ms * 10) / 10);
    for (const figure of figures) {
      if (figure.status !== 200) continue;
      const answer = await timedGet(`${baseUrl}${figure.path}`);
      if (answer.status !== 200) figure.status = answer.status;
      else if (index > 0) figure.samplesMs.push(Math.round(answer.ms * 10) / 10);
    }
  }
  const uploadSummary = summarizeLatencies(uploadMs);
  for (const figure of figures) {
    const summary = figure.status === 200 ? summarizeLatencies(figure.samplesMs) : null;
    if (summary) Object.assign(figure, { p50Ms: summary.p50Ms, p95Ms: summary.p95Ms, maxMs: summary.maxMs });
    figure.uploadP50Ms = uploadSummary?.p50Ms ?? null;
  }
  return figures;
}

function targetOf(backend: Backend): DatabaseTarget {
  const url = backend.env.DATABASE_URL;
  const dataDir = backend.env.BENCHTRACK_DATA_DIR;
  if (url) return { kind: "postgres", url };
  if (dataDir) return { kind: "embedded", dataDir };
  throw new Error(`Backend ${backend.kind} names no database`);
}

/**
 * Seeds `backend` (its connection closed before the server opens it: the embedded database allows
 * one process), explains on PostgreSQL, then serves and times the pages. `running` learns of the
 * server so an interrupted benchmark still stops it.
 */
export async function benchPagesOn(
  backend: Backend,
  options: PageBenchOptions,
  server: { port: number; logPath: string; running: Set<BenchServer> },
  log: (line: string) => void,
): Promise<PageBenchResult> {
  const target = targetOf(backend);
  const database = await openDatabase(target);
  let history: SeededHistory;
  let floors: ZoomedOutFloor[];
  try {
    const held = backend.kept ? await readSeededHistory(database.prisma) : null;
    if (held) {
      log(`reusing the kept history: ${held.runs} runs, ${held.results} results (not seeded again)`);
      // A seeding stopped during its rollups (or uploads whose job never ran) left weeks pending: finish them.
      const started = performance.now();
      const { weeks } = await refreshRollups(database.prisma, held.projectId);
      if (weeks > 0) log(`refreshed ${weeks} pending weeks' rollups in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    else log(`seeding ${options.runs} runs × ${options.endpoints} endpoints over ${options.years ?? 2} years…`);
    history = held ?? (await seedPageHistory(database.prisma, options));
    if (!held) log(
      `seeded ${history.runs} runs, ${history.results} results in ${(history.insertMs / 1000).toFixed(1)} s (+ ANALYZE ${(history.analyzeMs / 1000).toFixed(1)} s, rollups of ${history.rollupWeeks} weeks ${(history.rollupMs / 1000).toFixed(1)} s)`,
    );
    floors = await measureZoomedOutFloors(database.prisma, history);
    for (const floor of floors) log(describeZoomedOutFloor(floor));
  } finally {
    await database.close();
  }

  let explain: ExplainReport | null = null;
  if (target.kind === "postgres") {
    log("capturing the pages' statements for EXPLAIN (ANALYZE, BUFFERS)…");
    explain = await explainPageQueries(target.url, history);
  }

  const serving = await startServer({
    port: server.port,
    env: { DATABASE_URL: "", ...backend.env, BENCHTRACK_ADMIN_TOKEN: PAGE_BENCH_ADMIN_TOKEN },
    logPath: server.logPath,
  });
  server.running.add(serving);
  try {
    log(`server ready at ${serving.baseUrl}; timing ${options.samples} GETs per page…`);
    const pages = await measurePages(serving.baseUrl, benchedPages(history), options.samples);
    log(`timing the trend pages' first view after each of ${FIRST_VIEW_UPLOADS} uploads…`);
    const trendPages = benchedPages(history).filter(({ page }) => TREND_PAGES.has(page));
    const firstViews = await measureFirstViews(serving.baseUrl, trendPages, history, FIRST_VIEW_UPLOADS);
    const { projectId: _projectId, ...seeding } = history;
    return { seeding, pages, firstViews, explain, zoomedOutFloors: floors };
  } finally {
    await serving.stop();
    server.running.delete(serving);
  }
}

const PORTS: Record<BackendKind, number> = { embedded: 3480, postgres: 3481 };

export interface PageBenchRun {
  kinds: BackendKind[];
  postgresUrl: string;
  /** A named PostgreSQL database to seed once and keep (reused when it holds a history), instead of a throw-away one. */
  keptDatabaseUrl?: string;
  /** The server's port (default 3480 embedded, 3481 PostgreSQL), for a machine where those are taken. */
  port?: number;
  options: PageBenchOptions;
  resultsDir: string;
  /** Live servers and databases, which the caller stops and drops if the benchmark is interrupted. */
  running: Set<BenchServer>;
  backends: Set<Backend>;
}

/** Runs the page benchmark on each backend, prints the table and writes bench-results/pages.json. */
export async function runPageBenchmarks(run: PageBenchRun): Promise<void> {
  const report: Record<string, unknown>[] = [];
  const rows: string[][] = [];
  const firstViewRows: string[][] = [];
  for (const kind of run.kinds) {
    const log = (line: string) => console.log(`[pages/${kind}] ${line}`);
    let backend: Backend | null = null;
    try {
      backend =
        kind === "embedded"
          ? await prepareEmbedded()
          : run.keptDatabaseUrl
            ? await keptPostgres(run.keptDatabaseUrl)
            : await preparePostgres(run.postgresUrl);
      run.backends.add(backend);
      log(backend.description);
      const result = await benchPagesOn(
        backend,
        run.options,
        { port: run.port ?? PORTS[kind], logPath: path.join(run.resultsDir, `server-pages-${kind}.log`), running: run.running },
        log,
      );
      report.push({ backend: kind, description: backend.description, ...result });
      rows.push(...result.pages.map((figure) => tableRow(kind, figure)));
      firstViewRows.push(...result.firstViews.map((figure) => firstViewRow(kind, figure, result)));
      if (result.explain) logExplain(result.explain, log);
    } catch (error) {
      // One backend failing (PostgreSQL down, server crash) still leaves the other's figures.
      console.error(`[pages/${kind}] failed:`, error);
      rows.push([kind, "(benchmark)", `FAILED: ${String(error).split("\n")[0]}`]);
      report.push({ backend: kind, error: String(error) });
    } finally {
      await backend?.dispose();
      if (backend) run.backends.delete(backend);
    }
  }
  printTable(rows);
  printFirstViews(firstViewRows);
  const resultsPath = path.join(run.resultsDir, "pages.json");
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, node: process.version };
  const document = {
    generatedAt: new Date().toISOString(),
    machine,
    options: run.options,
    budgetMs: PAGE_BUDGET_MS,
    backends: report,
  };
  writeFileSync(resultsPath, JSON.stringify(document, null, 2));
  console.log(`\nWrote ${path.relative(process.cwd(), resultsPath)}`);
}
