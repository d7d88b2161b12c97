// npm run bench [-- --ndjson-mb 100 --uploads 400 --concurrency 8 --postgres | --embedded]
// npm run bench -- --pages [--page-runs 5000 --page-years 2 --page-samples 20 --postgres | --embedded]
//   [--page-database-url postgres://…/NAME]: seed into that PostgreSQL database (created if missing) and
//   KEEP it; a later run on it measures the history it holds instead of seeding again. --page-port N: the
//   page server's port (default 3480 embedded, 3481 PostgreSQL).
// Either: --minutes N, how long each part may take before it is stopped (default 10; a million rows
// of history on 2 shared cores needs more).
// npm run bench -- --scale [--read-replicas]   (PostgreSQL: the scale part only; --read-replicas: its read-replica step only)
//
// Ingest benchmarks, then page benchmarks (`--pages`: the page benchmarks only), against the production
// build, with throw-away databases, on 127.0.0.1 only. They measure and print; they assert nothing about
// timings (correctness lines say OK or WRONG). Pages: see scripts/bench/pages.ts (ports 3480/3481,
// results in bench-results/pages.json).
//   1. Builds the app if the sources changed, creates a fresh database per backend (an embedded PGlite
//      folder in a temp dir; a `benchtrack_bench_<ts>` database on PostgreSQL, dropped afterwards),
//      migrates it and starts `next start` on port 3460 (embedded) or 3461 (PostgreSQL).
//   2. Measures, on each backend:
//      - fixture NDJSON: upload time of k6/baseline/short-ndjson/points.ndjson (0.56 MB), median of 5.
//      - large NDJSON: a ~100 MB k6 NDJSON synthesized from that fixture (its points repeated with
//        shifted timestamps), sent gzip-compressed and streamed from disk. Figures: wall time of the
//        upload; MB/s of decompressed NDJSON; the serving process's resident memory (VmRSS) before,
//        its peak sampled every 50 ms during the upload, after, and VmHWM (lifetime peak); and whether
//        the stored run's aggregate request count equals the http_reqs points written.
//      - k6 summary throughput: N uploads (default 400) of k6/baseline/round1/summary.json, 8 in flight,
//        each a distinct round. Figures: successful uploads per second of wall time; p50/p95/p99/max
//        latency of the successful requests; errors by status and error code. Before the timed part,
//        8 concurrent first uploads create the project (reported apart: a race on project creation).
//      - idempotency: 8 concurrent uploads of one body with one Idempotency-Key. Correct means one
//        201, seven 200, one id answered and exactly one run listed.
//   3. Prints a `backend | test | figure` table and writes everything to bench-results/ingest.json.
// The scale part (PostgreSQL, scripts/bench/scale.ts) ends with read replicas: a streaming replica of the
// server (pg_basebackup of the whole cluster into a temp folder, pg_ctl on a free port; replication from
// 127.0.0.1 must be allowed, as .ci/run does), two app servers on ports 3461/3462 reading from it, 32
// readers while uploads continue.
// npm run bench -- --isolation   (PostgreSQL: the isolation part only, scripts/bench/isolation.ts; also
// run after the scale part): 1 and 16 readers of pages alone (the floor), 16 readers while 4 uploaders
// send 50-endpoint summaries (pages/s and p95 beside the floor's), and one reader's latency while a
// 1,000,000-line go test -bench file is refused and a 10,000-benchmark suite is stored; results in
// bench-results/isolation.json.
// npm run bench -- --postgres --baseline-ref <git ref> [--wide]: the 50-endpoint uploads measured on this
// build and on the ref's (a git worktree in a temp dir, built there: scripts/bench/baseline.ts) in the same
// run, each server on its own fresh database, printed beside pgbench's floor; --wide: that part only
// (the floor, then the uploads to both builds).
// Backends: --embedded or --postgres picks one; with DATABASE_URL set, PostgreSQL only (a throw-away
// database on that server); otherwise both when PostgreSQL answers on 127.0.0.1:5432, else embedded.
// Server logs go to bench-results/server-<backend>.log.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_POSTGRES_URL, isPostgresReachable, prepareEmbedded, preparePostgres } from "./bench/backends";
import type { Backend, BackendKind } from "./bench/backends";
import {
  checkConcurrentIdempotency,
  measureFixtureNdjson,
  measureLargeNdjson,
  measureSummaryThroughput,
} from "./bench/ingest";
import type { IngestClient } from "./bench/ingest";
import { measureIsolation } from "./bench/isolation";
import { measureReadReplicas } from "./bench/read-replicas";
import { synthesizeNdjson } from "./bench/ndjson";
import {
  measureHistoryEffect,
  measurePgbenchFloor,
  measureReplicas,
  measureSharedRateLimit,
  measureWideUploads,
  synthesizeWideSummary,
} from "./bench/scale";
import { startStreamingReplica } from "../server/testing/streaming-replica";
import type { StreamingReplica } from "../server/testing/streaming-replica";
import { runPageBenchmarks } from "./bench/pages";
import { startServer } from "./bench/server";
import type { BenchServer } from "./bench/server";
import { ROOT, buildApp, isBuildCurrent } from "./lib/build";
import { buildBaseline, measureBaselineWideUploads } from "./bench/baseline";
import type { Row } from "./bench/table";
import type { BaselineBuild } from "./bench/baseline";
import { positiveNumber, readBenchArgs } from "./bench/options";
import { recordLines, writeIngestReport } from "./bench/ingest-report";

const PORTS: Record<BackendKind, number> = { embedded: 3460, postgres: 3461 };
/** The baseline build's server (--baseline-ref). */
const BASELINE_PORT = 3463;
const ADMIN_TOKEN = "benchtrack-bench-admin-secret";
const FIXTURES = path.join(ROOT, "server", "domain", "parsers", "fixtures", "k6", "baseline");
const FIXTURE_NDJSON = path.join(FIXTURES, "short-ndjson", "points.ndjson");
const FIXTURE_SUMMARY = path.join(FIXTURES, "round1", "summary.json");
const RESULTS_DIR = path.join(ROOT, "bench-results");
const FIXTURE_REPEATS = 5;

const { args, scaleOnly, options, pageOptions } = readBenchArgs();

// Servers run in their own process group (so the whole tree can be stopped): stop them on any exit,
// then drop the throw-away databases the page benchmark has open.
const running = new Set<BenchServer>();
const liveBackends = new Set<Backend>();
const liveReplicas = new Set<StreamingReplica>();
async function stopEverything(reason: string): Promise<never> {
  console.error(`\nStopping (${reason})…`);
  await Promise.allSettled([...running].map((server) => server.stop()));
  await Promise.allSettled([...liveReplicas].map((replica) => replica.stop()));
  await Promise.allSettled([...liveBackends].map((backend) => backend.dispose()));
  process.exit(1);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stopEverything(signal));
// A history of hundreds of thousands of runs takes longer to seed: a minute more per 10,000 runs past 50,000.
const seedingAllowanceMs = Math.max(0, pageOptions.runs - 50_000) * 6;
const deadlineMs = positiveNumber("minutes", args.minutes) * 60_000 * (args.pages ? 1 : 2) + seedingAllowanceMs;
setTimeout(() => void stopEverything(`time limit of ${deadlineMs / 60_000} minutes`), deadlineMs).unref();

async function chooseBackends(): Promise<{ kinds: BackendKind[]; postgresUrl: string }> {
  const postgresUrl = process.env.DATABASE_URL?.trim() || DEFAULT_POSTGRES_URL;
  if (scaleOnly) return { kinds: ["postgres"], postgresUrl };
  if (args.embedded && !args.postgres) return { kinds: ["embedded"], postgresUrl };
  if (args.postgres || process.env.DATABASE_URL?.trim()) {
    return { kinds: args.embedded ? ["embedded", "postgres"] : ["postgres"], postgresUrl };
  }
  const isReachable = await isPostgresReachable(postgresUrl);
  if (!isReachable) console.log(`PostgreSQL does not answer at ${DEFAULT_POSTGRES_URL}: embedded only.`);
  return { kinds: isReachable ? ["embedded", "postgres"] : ["embedded"], postgresUrl };
}

async function benchBackend(backend: Backend, synthetic: Awaited<ReturnType<typeof synthesizeNdjson>>) {
  const rows: Row[] = [];
  const figures: Record<string, unknown> = {};
  const server = await startServer({
    port: PORTS[backend.kind],
    // An inherited DATABASE_URL must not redirect the embedded run; "" counts as unset.
    env: { DATABASE_URL: "", ...backend.env, BENCHTRACK_ADMIN_TOKEN: ADMIN_TOKEN },
    logPath: path.join(RESULTS_DIR, `server-${backend.kind}.log`),
  });
  running.add(server);
  try {
    console.log(`[${backend.kind}] server ready at ${server.baseUrl} (pid ${server.serverPid})`);
    const client: IngestClient = { server, adminToken: ADMIN_TOKEN };
    const scenarios = [
      ["fixtureNdjson", () => measureFixtureNdjson(client, FIXTURE_NDJSON, FIXTURE_REPEATS)],
      ["largeNdjson", () => measureLargeNdjson(client, synthetic)],
      [
        "summaryThroughput",
        () => measureSummaryThroughput(client, FIXTURE_SUMMARY, options.uploads, options.concurrency),
      ],
      ["idempotency", () => checkConcurrentIdempotency(client, FIXTURE_SUMMARY, options.concurrency)],
    ] as const;
    for (const [name, measure] of scenarios) {
      console.log(`[${backend.kind}] ${name}…`);
      const result = await measure();
      figures[name] = result.figures;
      recordLines(rows, backend.kind, result.lines);
    }
    return { rows, figures };
  } finally {
    await server.stop();
    running.delete(server);
  }
}

/**
 * Issue 13's scale figures, PostgreSQL only (they need a server several processes can share): the
 * pgbench floor, 50-endpoint uploads against it, history's effect on upload latency, and two replicas.
 */
async function benchScale(backend: Backend, workDir: string) {
  const rows: Row[] = [];
  const figures: Record<string, unknown> = {};
  const databaseUrl = backend.env.DATABASE_URL;
  if (!databaseUrl) return { rows, figures };
  const wide = synthesizeWideSummary(FIXTURE_SUMMARY);
  const record = (name: string, result: { figures: unknown; lines: { test: string; figure: string }[] }) => {
    figures[name] = result.figures;
    recordLines(rows, backend.kind, result.lines);
  };
  const start = async (port: number, env: Record<string, string> = {}) => {
    const server = await startServer({
      port,
      env: { ...backend.env, BENCHTRACK_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
      logPath: path.join(RESULTS_DIR, `server-${backend.kind}-${port}.log`),
    });
    running.add(server);
    return server;
  };
  const stop = async (servers: BenchServer[]) => {
    for (const server of servers) {
      await server.stop();
      running.delete(server);
    }
  };

  let servers: BenchServer[] = [];
  try {
    if (!args["read-replicas"]) {
      console.log(`[${backend.kind}] the floor: pgbench, an upload's writes (1 run + 51 results) per transaction…`);
      const floor = measurePgbenchFloor(databaseUrl, workDir, options.concurrency);
      figures.floor = floor;
      rows.push({
        backend: backend.kind,
        test: `floor: PostgreSQL alone, 1 run + 51 result rows per transaction, ${floor.clients} clients (pgbench)`,
        figure: `${floor.transactionsPerSecond.toFixed(0)} tx/s, ${floor.latencyAverageMs.toFixed(1)} ms average`,
      });
      servers = [await start(PORTS.postgres)];
      console.log(`[${backend.kind}] 50-endpoint uploads…`);
      record("wideUploads", await measureWideUploads(servers[0]!, ADMIN_TOKEN, wide, floor, options.uploads, options.concurrency));
      if (baseline) {
        await stop(servers);
        servers = [];
        record("baselineWideUploads", await measureBaselineWideUploads(baseline, backend, wide, floor, { adminToken: ADMIN_TOKEN, resultsDir: RESULTS_DIR, port: BASELINE_PORT, uploads: options.uploads, concurrency: options.concurrency, running, liveBackends }));
        if (args.wide) return { rows, figures };
        servers = [await start(PORTS.postgres)];
      } else if (args.wide) {
        return { rows, figures };
      }
      console.log(`[${backend.kind}] history's effect on upload latency…`);
      record("historyEffect", await measureHistoryEffect(servers[0]!, ADMIN_TOKEN, wide, databaseUrl));
      servers.push(await start(PORTS.postgres + 1));
      console.log(`[${backend.kind}] two replicas…`);
      record("replicas", await measureReplicas(servers, ADMIN_TOKEN, wide, databaseUrl));
      await stop(servers);
      servers = [];
      const limit = 20;
      servers = [await start(PORTS.postgres, { BENCHTRACK_RATE_UPLOADS_PER_MINUTE: String(limit) }), await start(PORTS.postgres + 1, { BENCHTRACK_RATE_UPLOADS_PER_MINUTE: String(limit) })];
      console.log(`[${backend.kind}] rate limits across replicas…`);
      record("sharedRateLimit", await measureSharedRateLimit(servers, ADMIN_TOKEN, wide, limit));
      await stop(servers);
      servers = [];
    }
    console.log(`[${backend.kind}] a streaming replica (pg_basebackup of the server)…`);
    const replicaStarted = performance.now();
    const replica = await startStreamingReplica(databaseUrl);
    liveReplicas.add(replica);
    try {
      console.log(`[${backend.kind}]   replica on port ${replica.port} after ${((performance.now() - replicaStarted) / 1000).toFixed(0)} s; two app servers reading from it…`);
      const readUrl = replica.url();
      servers = [await start(PORTS.postgres, { DATABASE_READ_URL: readUrl }), await start(PORTS.postgres + 1, { DATABASE_READ_URL: readUrl })];
      record("readReplicas", await measureReadReplicas(servers, ADMIN_TOKEN, wide, { primaryUrl: databaseUrl, replicaUrl: readUrl }));
      await stop(servers);
      servers = [];
    } finally {
      await replica.stop();
      liveReplicas.delete(replica);
    }
  } finally {
    await stop(servers);
  }
  return { rows, figures };
}

/**
 * Issue 36's isolation figures (PostgreSQL): pages read by 1 and 16 readers alone (the floor), by 16
 * readers while 4 uploaders send, and one reader's latency while a hostile file is refused and a
 * 10,000-benchmark suite is stored (scripts/bench/isolation.ts).
 */
async function benchIsolation(backend: Backend, workDir: string) {
  const rows: Row[] = [];
  const server = await startServer({
    port: PORTS.postgres,
    env: { ...backend.env, BENCHTRACK_ADMIN_TOKEN: ADMIN_TOKEN },
    logPath: path.join(RESULTS_DIR, `server-${backend.kind}-isolation.log`),
  });
  running.add(server);
  try {
    console.log(`[${backend.kind}] isolation: readers alone, readers with uploaders, a hostile file and a 10,000-benchmark suite…`);
    const result = await measureIsolation(server, ADMIN_TOKEN, synthesizeWideSummary(FIXTURE_SUMMARY), workDir);
    recordLines(rows, backend.kind, result.lines);
    return { rows, figures: { isolation: result.figures } };
  } finally {
    await server.stop();
    running.delete(server);
  }
}

mkdirSync(RESULTS_DIR, { recursive: true });
const { kinds, postgresUrl } = await chooseBackends();
const baseline: BaselineBuild | null = args["baseline-ref"] ? buildBaseline(args["baseline-ref"]) : null;
if (baseline) process.on("exit", () => baseline.dispose());
if (!isBuildCurrent()) {
  console.log("Building the app (the sources changed since the last build)…");
  buildApp();
}

async function benchIngest(): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "benchtrack-bench-"));
  const rows: Row[] = [];
  const report: Record<string, unknown>[] = [];
  try {
    if (!scaleOnly) console.log(`Synthesizing a ${options.ndjsonMb} MB k6 NDJSON from ${path.relative(ROOT, FIXTURE_NDJSON)}…`);
    const synthetic = scaleOnly
      ? null
      : await synthesizeNdjson(FIXTURE_NDJSON, options.ndjsonMb * 1024 * 1024, path.join(workDir, "points.ndjson"));
    for (const kind of kinds) {
      let backend: Backend | null = null;
      try {
        backend = kind === "embedded" ? await prepareEmbedded() : await preparePostgres(postgresUrl);
        console.log(`\n[${kind}] ${backend.description}`);
        const result = synthetic ? await benchBackend(backend, synthetic) : { rows: [], figures: {} };
        rows.push(...result.rows);
        const scale = kind === "postgres" && !args.isolation ? await benchScale(backend, workDir) : { rows: [], figures: {} };
        rows.push(...scale.rows);
        const isolation = kind === "postgres" && !args.wide && (args.isolation || !scaleOnly) ? await benchIsolation(backend, workDir) : { rows: [], figures: {} };
        rows.push(...isolation.rows);
        report.push({ backend: kind, description: backend.description, ...result.figures, ...scale.figures, ...isolation.figures });
      } catch (error) {
        // One backend failing (PostgreSQL down, server crash) still leaves the other's figures.
        console.error(`[${kind}] failed:`, error);
        rows.push({ backend: kind, test: "(benchmark)", figure: `FAILED: ${String(error).split("\n")[0]}` });
        report.push({ backend: kind, error: String(error) });
      } finally {
        await backend?.dispose();
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }

  const resultsPath = path.join(RESULTS_DIR, args.isolation ? "isolation.json" : scaleOnly ? "scale.json" : "ingest.json");
  writeIngestReport(resultsPath, rows, report, options);
}

if (!args.pages) await benchIngest();
if (scaleOnly) process.exit(0);
await runPageBenchmarks({
  kinds,
  postgresUrl,
  keptDatabaseUrl: args["page-database-url"],
  port: args["page-port"] === undefined ? undefined : positiveNumber("page-port", args["page-port"]),
  options: pageOptions,
  resultsDir: RESULTS_DIR,
  running,
  backends: liveBackends,
});
process.exit(0);
