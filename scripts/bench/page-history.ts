import { createHash } from "node:crypto";
import { createSeededRandom } from "../../server/domain/stats/random";
import type { SeededRandom } from "../../server/domain/stats/random";
import type { PrismaClient } from "../../server/generated/prisma/client";
import { markProjectPending, refreshRollups } from "../../server/services/trends";

/**
 * A synthetic history for the page benchmark, written straight into a fresh database: one project,
 * its endpoints, runs spread over two years (or `years`), and per run one result per endpoint plus the aggregate
 * (endpoint_id NULL), with lognormal-shaped percentiles. The bundled fixtures are far too few for
 * 5,000 distinct runs, and a throw-away benchmark database is the one place synthetic numbers belong
 * (never the demo). Rows go in as multi-row INSERTs: the upload path would take minutes for this.
 */
export interface HistorySize {
  runs: number;
  endpoints: number;
  /** How many years back the runs are spread (2 by default; 10 for the zoomed-out trend of issue 26). */
  years?: number;
}

export const BENCH_PROJECT_SLUG = "bench";
const DEFAULT_YEARS = 2;
const INSERT_BATCH_ROWS = 5_000;
const RUN_SECONDS = 60;

const ENDPOINT_NAMES = [
  "GetListing", "ListListings", "SearchListings", "GetAllCategories", "CheckStockAvailability",
  "GetSeller", "ListReviews", "CreateListing", "UpdateListing", "DeleteListing",
  "GetCart", "AddToCart", "RemoveFromCart", "Checkout", "GetOrder",
  "ListOrders", "GetUserProfile", "UpdateUserProfile", "GetRecommendations", "HealthCheck",
]; // prettier-ignore

export interface SeededHistory {
  projectId: string;
  runs: number;
  results: number;
  insertMs: number;
  analyzeMs: number;
  /** Building the rollups by the refresh-rollups job's own code (every week marked pending, then refreshed). */
  rollupMs: number;
  rollupWeeks: number;
  /** What the parameterised pages are opened with. */
  sample: { runId: string; endpoint: string; label: string; branch: string };
  /** The endpoints' names (protocol "http"), for uploads that append to the same series. */
  endpointNames: string[];
}

/**
 * The history a kept database (`--page-database-url`) already holds, or null when it holds none: its
 * bench project's counts and the pages' sample (the newest seeded main run: uploads of earlier page
 * benchmarks carry no build URL). Seeding and rollup times are those of this run (none: 0).
 */
export async function readSeededHistory(db: PrismaClient): Promise<SeededHistory | null> {
  const project = await db.project.findUnique({ where: { slug: BENCH_PROJECT_SLUG }, select: { id: true } });
  if (!project) return null;
  const [runs, results, endpoints, newestMain] = await Promise.all([
    db.run.count({ where: { projectId: project.id } }),
    db.result.count({ where: { projectId: project.id } }),
    db.endpoint.findMany({ where: { projectId: project.id }, select: { name: true }, orderBy: { id: "asc" } }),
    db.run.findFirst({
      where: { projectId: project.id, gitBranch: "main", buildUrl: { startsWith: "https://ci.example.com/bench/builds/" } },
      orderBy: { startedAt: "desc" },
      select: { id: true },
    }),
  ]);
  const names = endpoints.map((endpoint) => endpoint.name);
  return {
    projectId: project.id,
    runs,
    results,
    insertMs: 0,
    analyzeMs: 0,
    rollupMs: 0,
    rollupWeeks: 0,
    sample: { runId: newestMain?.id ?? "", endpoint: names[0] ?? "", label: "baseline", branch: "release/2.x" },
    endpointNames: names,
  };
}

/** A stable, cuid-looking id, so pages that validate id shapes accept it. */
function runIdOf(index: number): string {
  return `c${createHash("sha1").update(`bench-run-${index}`).digest("hex").slice(0, 24)}`;
}

function sqlText(value: string | null): string {
  return value === null ? "NULL" : `'${value.replaceAll("'", "''")}'`;
}

function sqlNumber(value: number | null, digits = 3): string {
  return value === null ? "NULL" : Number(value.toFixed(digits)).toString();
}

interface EndpointProfile {
  id: number;
  p50Ms: number;
  /** Log-scale spread: p95 = p50 × e^(1.645 σ), as for a lognormal latency. */
  sigma: number;
  requestShare: number;
  errorRate: number;
}

interface RunShape {
  id: string;
  startedAt: Date;
  branch: string;
  label: string;
  round: number | null;
  tool: "k6" | "locust";
}

/**
 * A run's shape: mostly main, a release branch, and short-lived feature branches (a new one every
 * ~250 runs); labels nightly/baseline with some ManagedAsync rounds; k6 mostly, Locust sometimes.
 */
function shapeRun(index: number, total: number, start: number, historyDays: number, random: SeededRandom): RunShape {
  const spacingMs = (historyDays * 86_400_000) / total;
  const startedAt = new Date(start + index * spacingMs + random.uniform() * spacingMs * 0.5);
  const branchDraw = random.uniform();
  const branch = branchDraw < 0.75 ? "main" : branchDraw < 0.8 ? "release/2.x" : `feature/f-${Math.floor(index / 250)}`;
  const labelDraw = random.uniform();
  const label = labelDraw < 0.45 ? "nightly" : labelDraw < 0.9 ? "baseline" : "ManagedAsync";
  return {
    id: runIdOf(index),
    startedAt,
    branch,
    label,
    round: label === "ManagedAsync" ? (index % 5) + 1 : null,
    tool: random.uniform() < 0.7 ? "k6" : "locust",
  };
}

/** One endpoint's numbers in one run: lognormal-shaped percentiles around the endpoint's median. */
function endpointNumbers(profile: EndpointProfile, runFactor: number, durationSeconds: number, random: SeededRandom) {
  const p50 = profile.p50Ms * runFactor * Math.exp(random.gaussian(0, 0.03));
  const at = (z: number) => p50 * Math.exp(z * profile.sigma + random.gaussian(0, 0.02));
  const requests = Math.max(1, Math.round(2_000 * profile.requestShare * (1 + random.gaussian(0, 0.02))));
  const failures = Math.round(requests * profile.errorRate * Math.exp(random.gaussian(0, 0.5)));
  const p99 = at(2.3263);
  return {
    requests,
    failures,
    throughput: requests / durationSeconds,
    min: p50 * Math.exp(-2.5 * profile.sigma),
    mean: p50 * Math.exp((profile.sigma * profile.sigma) / 2),
    p50,
    p90: at(1.2816),
    p95: at(1.6449),
    p99,
    max: p99 * (1.2 + random.uniform()),
  };
}

type Numbers = ReturnType<typeof endpointNumbers>;

/** The aggregate row: sums of counts; latency as request-weighted means (an approximation, fine here). */
function aggregateNumbers(rows: Numbers[]): Numbers {
  const requests = rows.reduce((sum, row) => sum + row.requests, 0);
  const weighted = (pick: (row: Numbers) => number) =>
    rows.reduce((sum, row) => sum + pick(row) * row.requests, 0) / requests;
  return {
    requests,
    failures: rows.reduce((sum, row) => sum + row.failures, 0),
    throughput: rows.reduce((sum, row) => sum + row.throughput, 0),
    min: Math.min(...rows.map((row) => row.min)),
    mean: weighted((row) => row.mean),
    p50: weighted((row) => row.p50),
    p90: weighted((row) => row.p90),
    p95: weighted((row) => row.p95),
    p99: weighted((row) => row.p99),
    max: Math.max(...rows.map((row) => row.max)),
  };
}

function resultValues(run: RunShape, projectId: string, endpointId: number | null, numbers: Numbers): string {
  const percentiles = JSON.stringify({
    "50": Number(numbers.p50.toFixed(3)),
    "90": Number(numbers.p90.toFixed(3)),
    "95": Number(numbers.p95.toFixed(3)),
    "99": Number(numbers.p99.toFixed(3)),
  });
  const statusCodes = JSON.stringify({ "200": numbers.requests - numbers.failures, "500": numbers.failures });
  return `(${[
    sqlText(run.id),
    sqlText(projectId),
    endpointId === null ? "NULL" : String(endpointId),
    sqlText(run.startedAt.toISOString()),
    String(numbers.requests),
    String(numbers.failures),
    sqlNumber(numbers.failures / numbers.requests, 6),
    sqlNumber(numbers.throughput),
    sqlNumber(numbers.min),
    sqlNumber(numbers.mean),
    sqlNumber(numbers.p50),
    sqlNumber(numbers.p90),
    sqlNumber(numbers.p95),
    sqlNumber(numbers.p99),
    sqlNumber(numbers.max),
    `${sqlText(percentiles)}::jsonb`,
    `${sqlText(statusCodes)}::jsonb`,
  ].join(",")})`;
}

function runValues(run: RunShape, projectId: string, index: number): string {
  // Three runs per commit, as when a pipeline runs several tests of one build.
  const commit = createHash("sha1")
    .update(`bench-commit-${Math.floor(index / 3)}`)
    .digest("hex");
  return `(${[
    sqlText(run.id),
    sqlText(projectId),
    sqlText(run.tool),
    sqlText(run.tool === "k6" ? "k6-summary" : "locust-csv"),
    "'http'",
    sqlText(run.label),
    run.round === null ? "NULL" : String(run.round),
    sqlText(run.startedAt.toISOString()),
    String(RUN_SECONDS),
    sqlText(commit),
    sqlText(run.branch),
    sqlText(`https://ci.example.com/bench/builds/${10_000 + index}`),
  ].join(",")})`;
}

const RUN_COLUMNS =
  "id, project_id, tool, format, protocol, label, round, started_at, duration_seconds, git_commit, git_branch, build_url";
const RESULT_COLUMNS =
  "run_id, project_id, endpoint_id, started_at, requests, failures, error_rate, throughput, min_ms, mean_ms, " +
  "p50_ms, p90_ms, p95_ms, p99_ms, max_ms, percentiles, status_codes";

/**
 * Writes the project, its endpoints, the runs and one result per run per endpoint plus the aggregate
 * (endpoint_id NULL), as multi-row INSERTs of INSERT_BATCH_ROWS rows, then VACUUM ANALYZE (a real database
 * has statistics and a visibility map from autovacuum; a freshly loaded one would be planned blind and
 * could not answer from its covering index alone).
 */
export async function seedPageHistory(
  db: PrismaClient,
  options: HistorySize,
  now = new Date(),
): Promise<SeededHistory> {
  const random = createSeededRandom(20_261_122);
  const started = performance.now();
  const project = await db.project.create({
    data: { slug: BENCH_PROJECT_SLUG, name: "Bench", repoUrl: "https://github.com/example/bench" },
    select: { id: true },
  });
  const names = ENDPOINT_NAMES.slice(0, options.endpoints);
  while (names.length < options.endpoints) names.push(`Endpoint${names.length + 1}`);
  await db.endpoint.createMany({ data: names.map((name) => ({ projectId: project.id, name, protocol: "http" })) });
  const endpoints = await db.endpoint.findMany({ where: { projectId: project.id }, select: { id: true, name: true } });
  const profiles: EndpointProfile[] = endpoints.map((endpoint) => ({
    id: endpoint.id,
    p50Ms: 2 + random.uniform() * 38,
    sigma: 0.35 + random.uniform() * 0.25,
    requestShare: 0.5 + random.uniform(),
    errorRate: 0.0005 + random.uniform() * 0.003,
  }));

  const historyDays = Math.round((options.years ?? DEFAULT_YEARS) * 365);
  const start = now.getTime() - historyDays * 86_400_000;
  let runRows: string[] = [];
  let resultRows: string[] = [];
  let resultCount = 0;
  let newestMain: RunShape | null = null;
  let newest: RunShape | null = null;
  // Every value in these statements is generated here (numbers, or text quoted by sqlText): no input.
  // Written as generated, in batches (10 years of runs do not fit in memory as SQL text): runs first, as
  // their results refer to them.
  // The runs' statistics are taken again each time their count doubles: the foreign-key check of every
  // result row (against runs, at COMMIT) keeps the plan this session first made for it, and a plan made
  // on a nearly empty table walks all the project's runs per row, which made each batch slower than the
  // last (4,000 runs: 13.4 s of inserts without this, 3.9 s with it).
  let runsInserted = 0;
  let runsAnalyzedAt = 0;
  const flush = async () => {
    if (runRows.length > 0) await db.$executeRawUnsafe(`INSERT INTO runs (${RUN_COLUMNS}) VALUES ${runRows.join(",")}`);
    runsInserted += runRows.length;
    if (runsInserted >= 2 * runsAnalyzedAt) {
      await db.$executeRawUnsafe("ANALYZE runs");
      runsAnalyzedAt = runsInserted;
    }
    if (resultRows.length > 0) await db.$executeRawUnsafe(`INSERT INTO results (${RESULT_COLUMNS}) VALUES ${resultRows.join(",")}`);
    runRows = [];
    resultRows = [];
  };
  for (let index = 0; index < options.runs; index++) {
    const run = shapeRun(index, options.runs, start, historyDays, random);
    newest = run;
    if (run.branch === "main") newestMain = run;
    runRows.push(runValues(run, project.id, index));
    // A step (+25%) two thirds of the way through, and the ManagedAsync rounds slower: charts have shape.
    const runFactor =
      (index > options.runs * 0.66 ? 1.25 : 1) *
      (run.label === "ManagedAsync" ? 1.5 : 1) *
      Math.exp(random.gaussian(0, 0.05));
    const perEndpoint = profiles.map((profile) => ({
      id: profile.id,
      numbers: endpointNumbers(profile, runFactor, RUN_SECONDS, random),
    }));
    resultRows.push(resultValues(run, project.id, null, aggregateNumbers(perEndpoint.map((row) => row.numbers))));
    for (const row of perEndpoint) resultRows.push(resultValues(run, project.id, row.id, row.numbers));
    resultCount += perEndpoint.length + 1;
    if (resultRows.length >= INSERT_BATCH_ROWS) await flush();
  }
  await flush();
  const inserted = performance.now();
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  const analyzed = performance.now();

  // The rollups, built by the maintenance code itself: the history went in around the upload path, so
  // every week is marked pending (as the migration's backfill does) and the job's refresh summarises it.
  await markProjectPending(db, project.id);
  const { weeks } = await refreshRollups(db, project.id);
  await db.$executeRawUnsafe("VACUUM ANALYZE trend_rollups");

  // The pages opened: the newest main run, the first endpoint, and a label × branch pair that exists.
  const sampleRun = newestMain ?? newest;
  return {
    projectId: project.id,
    runs: options.runs,
    results: resultCount,
    insertMs: inserted - started,
    analyzeMs: analyzed - inserted,
    rollupMs: performance.now() - analyzed,
    rollupWeeks: weeks,
    sample: { runId: sampleRun?.id ?? "", endpoint: names[0] ?? "", label: "baseline", branch: "release/2.x" },
    endpointNames: names,
  };
}
