import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { median } from "../../server/domain/stats/descriptive";
import { describeCpuSplit, startCpuSplit } from "./cpu-split";
import { describeFailure, runConcurrently, send, summarizeLatencies } from "./http";
import type { TimedResponse } from "./http";
import type { ScenarioResult } from "./ingest";
import type { BenchServer } from "./server";

/**
 * Issue 13's scale measurements (PostgreSQL): the database's own rate for the upload's writes
 * (pgbench, the floor), uploads of a 50-endpoint k6 summary at concurrency 8 against it, upload latency
 * with 10,000 runs of history against an empty project's, and two replicas on one database.
 */

const ENDPOINTS = 50;

/** A k6 --summary-export with `endpoints` request names (sub-metrics), built from the real fixture's numbers. */
export function synthesizeWideSummary(fixturePath: string, endpoints = ENDPOINTS): string {
  const summary = JSON.parse(readFileSync(fixturePath, "utf8")) as { metrics: Record<string, Record<string, unknown>> };
  const duration = summary.metrics.http_req_duration ?? {};
  const reqs = summary.metrics.http_reqs ?? {};
  for (let index = 1; index <= endpoints; index++) {
    // Each endpoint its own latency level, so the verdict compares 50 distinct series.
    const scale = 0.5 + (index % 10) / 10;
    const scaled = Object.fromEntries(
      Object.entries(duration).map(([stat, value]) => [stat, typeof value === "number" ? value * scale : value]),
    );
    summary.metrics[`http_req_duration{name:E${index}}`] = scaled;
    summary.metrics[`http_reqs{name:E${index}}`] = {
      count: Math.round(Number(reqs.count ?? 1000) / endpoints),
      rate: Number(reqs.rate ?? 100) / endpoints,
    };
  }
  return JSON.stringify(summary);
}

export interface PgbenchFloor {
  clients: number;
  seconds: number;
  transactionsPerSecond: number;
  latencyAverageMs: number;
}

/**
 * The floor: what PostgreSQL alone sustains for an upload's writes, 1 run row + 51 result rows (50
 * endpoints and the aggregate, with their JSON percentiles) per transaction, `clients` at once, measured
 * by pgbench on tables shaped like `runs` and `results`.
 */
export function measurePgbenchFloor(databaseUrl: string, workDir: string, clients = 8, seconds = 10): PgbenchFloor {
  const psql = (sql: string) => execFileSync("psql", ["-q", "-v", "ON_ERROR_STOP=1", databaseUrl, "-c", sql], { stdio: "pipe" });
  psql(`DROP TABLE IF EXISTS floor_results, floor_runs;
    CREATE TABLE floor_runs (id text PRIMARY KEY, project_id text NOT NULL, tool text NOT NULL, label text, started_at timestamptz NOT NULL, config jsonb NOT NULL DEFAULT '{}');
    CREATE TABLE floor_results (id bigserial PRIMARY KEY, run_id text NOT NULL REFERENCES floor_runs(id), project_id text NOT NULL, endpoint_id int, started_at timestamptz NOT NULL,
      requests int, p50_ms float8, p90_ms float8, p95_ms float8, p99_ms float8, mean_ms float8, max_ms float8, percentiles jsonb NOT NULL DEFAULT '{}');
    CREATE INDEX ON floor_results (run_id); CREATE INDEX ON floor_results (project_id, endpoint_id, started_at DESC);`);
  const script = path.join(workDir, "floor.sql");
  // The run id is made once per transaction; the 51 results reference it.
  writeFileSync(
    script,
    `\\set n random(1, 2000000000)
BEGIN;
WITH run AS (
  INSERT INTO floor_runs (id, project_id, tool, label, started_at) VALUES ('r' || :client_id || '-' || :n || '-' || txid_current(), 'p', 'k6', 'nightly', now()) RETURNING id
)
INSERT INTO floor_results (run_id, project_id, endpoint_id, started_at, requests, p50_ms, p90_ms, p95_ms, p99_ms, mean_ms, max_ms, percentiles)
  SELECT run.id, 'p', e, now(), 1000, 5, 8, 9, 12, 6, 30, '{"50": 5, "90": 8, "95": 9, "99": 12}' FROM run, generate_series(1, 51) e;
COMMIT;
`,
  );
  const output = execFileSync("pgbench", ["-n", "-c", String(clients), "-j", "2", "-T", String(seconds), "-f", script, databaseUrl], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  psql("DROP TABLE IF EXISTS floor_results, floor_runs");
  const tps = /tps = ([\d.]+)/.exec(output)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(output)?.[1];
  if (tps === undefined || latency === undefined) throw new Error(`pgbench said nothing usable:\n${output}`);
  return { clients, seconds, transactionsPerSecond: Number(tps), latencyAverageMs: Number(latency) };
}

export function upload(server: BenchServer, token: string, project: string, body: string, query: Record<string, string>, headers: Record<string, string> = {}) {
  return send(`${server.baseUrl}/api/v1/projects/${project}/runs?${new URLSearchParams(query).toString()}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body,
  });
}

export const ms = (value: number | null) => (value === null ? "?" : `${value.toFixed(1)} ms`);

/** 50-endpoint uploads at `concurrency`, each a distinct round of one series (so each is judged against its baseline). */
export async function measureWideUploads(server: BenchServer, token: string, body: string, floor: PgbenchFloor | null, count = 400, concurrency = 8) {
  const project = "bench-wide";
  await runConcurrently(10, concurrency, (index) => upload(server, token, project, body, { label: "nightly", branch: "main", round: String(index) }));
  const cpu = startCpuSplit(server.serverPid);
  const started = performance.now();
  const responses = await runConcurrently(count, concurrency, (index) =>
    upload(server, token, project, body, { label: "nightly", branch: "main", round: String(1000 + index) }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const ok = responses.filter((response) => response.status === 201);
  const cpuSplit = cpu?.finish(ok.length) ?? null;
  const latency = summarizeLatencies(ok.map((response) => response.ms));
  const uploadsPerSecond = ok.length / wallSeconds;
  const figures = {
    endpoints: ENDPOINTS,
    uploads: count,
    concurrency,
    uploadsPerSecond,
    latency,
    errors: responses.filter((response) => response.status !== 201).map(describeFailure).slice(0, 5),
    floorTransactionsPerSecond: floor?.transactionsPerSecond ?? null,
    ratioToFloor: floor ? uploadsPerSecond / floor.transactionsPerSecond : null,
    cpuSplit,
  };
  return {
    figures,
    lines: [
      {
        test: `${ENDPOINTS}-endpoint k6 summary ×${count}, ${concurrency} in flight: throughput`,
        figure: `${uploadsPerSecond.toFixed(1)} uploads/s${floor ? ` = ${(100 * figures.ratioToFloor!).toFixed(1)}% of the floor (pgbench, same writes, ${floor.clients} clients: ${floor.transactionsPerSecond.toFixed(0)} tx/s, ${floor.latencyAverageMs.toFixed(1)} ms)` : ""}; ${count - ok.length} errors`,
      },
      {
        test: `${ENDPOINTS}-endpoint k6 summary ×${count}, ${concurrency} in flight: latency`,
        figure: latency ? `p50 ${ms(latency.p50Ms)}, p95 ${ms(latency.p95Ms)}, p99 ${ms(latency.p99Ms)}, max ${ms(latency.maxMs)}` : "no success",
      },
      ...(cpuSplit ? [{ test: `${ENDPOINTS}-endpoint k6 summary ×${count}, ${concurrency} in flight: where the CPU went`, figure: describeCpuSplit(cpuSplit) }] : []),
    ],
  } satisfies ScenarioResult<typeof figures>;
}

/**
 * Upload latency (one at a time, median of `samples`) on an empty project and on one with `history`
 * runs of the same series (bulk-inserted in SQL: `history` runs × 51 results).
 */
export async function measureHistoryEffect(server: BenchServer, token: string, body: string, databaseUrl: string, history = 10_000, samples = 30) {
  const timed = async (project: string, offset: number) => {
    const latencies: number[] = [];
    for (let index = 0; index < samples; index++) {
      const response = await upload(server, token, project, body, { label: "nightly", branch: "main", round: String(offset + index) });
      if (response.status !== 201) throw new Error(`upload failed: ${describeFailure(response)}`);
      latencies.push(response.ms);
    }
    return median(latencies);
  };
  // Both projects exist with their 50 endpoints before anything is timed.
  for (const project of ["bench-empty", "bench-history"]) {
    const response = await upload(server, token, project, body, { label: "warm-up", branch: "main" });
    if (response.status !== 201) throw new Error(`upload failed: ${describeFailure(response)}`);
  }
  const seedStarted = performance.now();
  await seedHistory(databaseUrl, "bench-history", history);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const emptyMs = await timed("bench-empty", 0);
  const historyMs = await timed("bench-history", 0);
  const figures = { history, samples, emptyMedianMs: emptyMs, historyMedianMs: historyMs, seedSeconds, ratio: emptyMs && historyMs ? historyMs / emptyMs : null };
  return {
    figures,
    lines: [
      {
        test: `${ENDPOINTS}-endpoint upload, one at a time: empty project → ${history.toLocaleString("en-US")} runs of history`,
        figure: `median ${ms(emptyMs)} → ${ms(historyMs)} (${figures.ratio === null ? "?" : `${((figures.ratio - 1) * 100).toFixed(0)}%`}; history bulk-seeded in ${seedSeconds.toFixed(1)} s)`,
      },
    ],
  } satisfies ScenarioResult<typeof figures>;
}

/** `runs` runs of the series label "nightly" on main, each with a result for every endpoint and the aggregate. */
async function seedHistory(databaseUrl: string, slug: string, runs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const project = await client.query<{ id: string }>("SELECT id FROM projects WHERE slug = $1", [slug]);
    const projectId = project.rows[0]?.id;
    if (!projectId) throw new Error(`no project ${slug}`);
    await client.query(
      `INSERT INTO runs (id, project_id, tool, format, label, started_at, git_branch, protocol)
       SELECT 'history-' || g, $1, 'k6', 'k6-summary', 'nightly', now() - interval '1 minute' * ($2 - g + 10), 'main', 'http'
       FROM generate_series(1, $2) g`,
      [projectId, runs],
    );
    await client.query(
      `INSERT INTO results (run_id, project_id, endpoint_id, started_at, requests, failures, error_rate, throughput, min_ms, mean_ms, p50_ms, p90_ms, p95_ms, p99_ms, max_ms, percentiles)
       SELECT r.id, r.project_id, e.id, r.started_at, 1000, 1, 0.001, 40, 1, m, m, m * 1.6, m * 1.9, m * 2.6, m * 5,
              jsonb_build_object('50', m, '90', m * 1.6, '95', m * 1.9, '99', m * 2.6)
       FROM runs r
       CROSS JOIN (SELECT id FROM endpoints WHERE project_id = $1 UNION ALL SELECT NULL) e
       CROSS JOIN LATERAL (SELECT 5 + random() AS m) noise
       WHERE r.project_id = $1 AND r.id LIKE 'history-%'`,
      [projectId],
    );
    await client.query("COMMIT");
    await client.query("ANALYZE runs; ANALYZE results");
  } finally {
    await client.end();
  }
}

/** Statuses counted: { "201": 198, "429 too_many_requests": 2 }. */
function tallyOf(responses: readonly TimedResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const key = response.status === 201 ? "201" : describeFailure(response);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * Two replicas (`servers`) on one database: `count` uploads at `concurrency`, alternating between them,
 * each on main (so each queues detection: uploads faster than detection coalesce into one waiting job).
 * Then, once the workers have drained the queue: every upload stored once, every detection job
 * completed, no regression opened twice.
 */
export async function measureReplicas(servers: readonly BenchServer[], token: string, body: string, databaseUrl: string, count = 200, concurrency = 8) {
  const project = "bench-replicas";
  const started = performance.now();
  const responses = await runConcurrently(count, concurrency, (index) =>
    upload(servers[index % servers.length]!, token, project, body, { label: "nightly", branch: "main", round: String(index) }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const ids = new Set(responses.map((response) => (response.body as { id?: string }).id).filter(Boolean));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 180_000;
    let pending = Number.POSITIVE_INFINITY;
    while (pending > 0 && Date.now() < deadline) {
      const rows = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM pgboss.job WHERE name = 'detect-regressions' AND state IN ('created', 'retry', 'active')",
      );
      pending = Number(rows.rows[0]?.n ?? 0);
      if (pending > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const runs = await client.query<{ n: string; distinct_runs: string }>(
      "SELECT count(*) AS n, count(DISTINCT r.id) AS distinct_runs FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.slug = $1",
      [project],
    );
    const jobs = await client.query<{ state: string; n: string }>(
      `SELECT state, count(*) AS n FROM (
         SELECT state::text, data FROM pgboss.job WHERE name = 'detect-regressions' UNION ALL SELECT state::text, data FROM pgboss.archive WHERE name = 'detect-regressions'
       ) j WHERE data->>'projectId' = (SELECT id FROM projects WHERE slug = $1) GROUP BY state`,
      [project],
    );
    const duplicates = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT endpoint_id, metric, first_run_id FROM regressions GROUP BY 1, 2, 3 HAVING count(*) > 1) d`,
    );
    const stored = Number(runs.rows[0]?.n ?? 0);
    const jobStates = Object.fromEntries(jobs.rows.map((row) => [row.state, Number(row.n)]));
    const figures = {
      uploads: count,
      replicas: servers.length,
      uploadsPerSecond: responses.filter((response) => response.status === 201).length / wallSeconds,
      statuses: tallyOf(responses),
      answeredIds: ids.size,
      runsStored: stored,
      detectionJobs: jobStates,
      detectionJobsPending: pending,
      // Uploads faster than detection coalesce (one job of a series waits at a time): every job completed, none failed.
      detectionDone: (jobStates.completed ?? 0) > 0 && Object.keys(jobStates).every((state) => state === "completed"),
      duplicateRegressions: Number(duplicates.rows[0]?.n ?? 0),
    };
    const isCorrect =
      stored === count && ids.size === count && figures.detectionDone && figures.duplicateRegressions === 0 && pending === 0;
    return {
      figures: { ...figures, isCorrect },
      lines: [
        {
          test: `${servers.length} replicas, ${count} uploads alternating, ${concurrency} in flight`,
          figure: `${figures.uploadsPerSecond.toFixed(1)} uploads/s; ${stored} runs stored for ${ids.size} ids answered; detection jobs ${Object.entries(jobStates)
            .map(([state, n]) => `${n} ${state}`)
            .join(", ")}; ${figures.duplicateRegressions} duplicate regressions → ${isCorrect ? "OK" : "WRONG"}`,
        },
      ],
    } satisfies ScenarioResult<typeof figures & { isCorrect: boolean }>;
  } finally {
    await client.end();
  }
}

/**
 * Rate limits shared by replicas: with a limit of `limit` uploads a minute per token, 3 × limit uploads
 * sent to two replicas within one window are accepted `limit` times in all (a per-process limit would
 * accept twice that).
 */
export async function measureSharedRateLimit(servers: readonly BenchServer[], token: string, body: string, limit: number) {
  // Start well inside a fresh minute window (windows are aligned to the minute).
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 1_000));
  const responses = await runConcurrently(3 * limit, 4, (index) =>
    upload(servers[index % servers.length]!, token, "bench-rate", body, { label: "rate", round: String(index) }, { "x-forwarded-for": `10.0.0.${index % 200}` }),
  );
  const accepted = responses.filter((response) => response.status === 201).length;
  const statuses = tallyOf(responses);
  const isCorrect = accepted === limit;
  return {
    figures: { limit, sent: 3 * limit, accepted, statuses, isCorrect },
    lines: [
      {
        test: `rate limit ${limit}/min per token, ${3 * limit} uploads over ${servers.length} replicas`,
        figure: `${accepted} accepted (${Object.entries(statuses)
          .map(([status, n]) => `${n}× ${status}`)
          .join(", ")}) → ${isCorrect ? "shared: OK" : "WRONG"}`,
      },
    ],
  } satisfies ScenarioResult<{ limit: number; sent: number; accepted: number; statuses: Record<string, number>; isCorrect: boolean }>;
}
