import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Database } from "../../db";
import { JOB_NAMES } from "./job-queue";

/**
 * The process's Prometheus metrics (prom-client), served at GET /metrics (app/metrics/route.ts; the names
 * are the interface: docs/operations.md and docs/grafana-dashboard.json are built on them). Counters and
 * histograms are counted where things happen; the job queue's depth and the connection pools are read at
 * scrape time (collectScrapeMetrics). Every label takes a bounded set of values: a route's template, never
 * its path; a format's name or "unknown".
 *
 * One registry per process, on globalThis: Next bundles this module into several chunks (each route,
 * instrumentation.ts), each with its own module scope, and a counter counted in one must be read in another.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "benchtrack_" });
  const registers = [registry];
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "benchtrack_http_request_duration_seconds",
      help: "API requests (REST, tRPC, probes, metrics) by route template, method and status: time to the answer's headers.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    uploads: new Counter({
      name: "benchtrack_uploads_total",
      help: "Uploads by format (detected or asked; unknown when refused before either) and outcome: stored, replayed (an Idempotency-Key seen before) or refused (status_class 4xx or 5xx).",
      labelNames: ["format", "outcome", "status_class"] as const,
      registers,
    }),
    gateOutcomes: new Counter({
      name: "benchtrack_gate_outcomes_total",
      help: "CI gate outcomes of stored uploads: pass, fail, inconclusive…",
      labelNames: ["outcome"] as const,
      registers,
    }),
    incidentsOpened: new Counter({
      name: "benchtrack_incidents_opened_total",
      help: "Incidents opened by change-point detection.",
      registers,
    }),
    jobs: new Histogram({
      name: "benchtrack_job_duration_seconds",
      help: "Background jobs run in this process, by queue and outcome (completed or failed).",
      labelNames: ["queue", "outcome"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
      registers,
    }),
    queueDepth: new Gauge({
      name: "benchtrack_job_queue_depth",
      help: "Jobs waiting in each queue (created or waiting for a retry), read from the database at scrape time.",
      labelNames: ["queue"] as const,
      registers,
    }),
    queueOldestAge: new Gauge({
      name: "benchtrack_job_queue_oldest_age_seconds",
      help: "Age of the oldest waiting job of each queue (0 when none waits), read at scrape time.",
      labelNames: ["queue"] as const,
      registers,
    }),
    poolTotal: new Gauge({
      name: "benchtrack_db_pool_connections",
      help: "Connections open in each PostgreSQL pool of this process (primary, replica-N); absent on the embedded database, which has one connection and no pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
    poolIdle: new Gauge({
      name: "benchtrack_db_pool_idle_connections",
      help: "Idle connections in each PostgreSQL pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
    poolWaiting: new Gauge({
      name: "benchtrack_db_pool_waiting_requests",
      help: "Queries waiting for a connection of each PostgreSQL pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
    cacheRequests: new Counter({
      name: "benchtrack_cache_requests_total",
      help: "Look-ups in the in-memory caches (trend histories, trend rows, run numbers…), by cache and result (hit or miss).",
      labelNames: ["cache", "result"] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const globalForMetrics = globalThis as unknown as { benchtrackMetrics?: Metrics };

/** The process's metrics, made on first use. */
export function getMetrics(): Metrics {
  globalForMetrics.benchtrackMetrics ??= createMetrics();
  return globalForMetrics.benchtrackMetrics;
}

/** "2xx", "4xx"…: the class of an HTTP status. */
export function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export function recordUpload(format: string, outcome: "stored" | "replayed" | "refused", status: number): void {
  getMetrics().uploads.inc({ format, outcome, status_class: statusClassOf(status) });
}

export function recordGateOutcome(outcome: string): void {
  getMetrics().gateOutcomes.inc({ outcome });
}

export function recordIncidentsOpened(count: number): void {
  if (count > 0) getMetrics().incidentsOpened.inc(count);
}

/** Look-ups in one of the in-memory caches: how many were found (hits) and how many had to be read (misses). */
export function recordCacheLookups(cache: string, hits: number, misses: number): void {
  const { cacheRequests } = getMetrics();
  if (hits > 0) cacheRequests.inc({ cache, result: "hit" }, hits);
  if (misses > 0) cacheRequests.inc({ cache, result: "miss" }, misses);
}

export function recordJob(queue: string, outcome: "completed" | "failed", seconds: number): void {
  getMetrics().jobs.observe({ queue, outcome }, seconds);
}

export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  getMetrics().httpRequestDuration.observe({ route, method, status: String(status) }, seconds);
}

/**
 * What is read at scrape time: each queue's depth and oldest waiting job (one statement on pg-boss's
 * job table, in the queue's schema `jobSchema`), and each PostgreSQL pool's connections. A queue table
 * not made yet (no worker ever started) reads as empty queues.
 */
export async function collectScrapeMetrics(database: Database, jobSchema: string): Promise<void> {
  const metrics = getMetrics();
  for (const { name, pool } of database.pools) {
    metrics.poolTotal.set({ pool: name }, pool.totalCount);
    metrics.poolIdle.set({ pool: name }, pool.idleCount);
    metrics.poolWaiting.set({ pool: name }, pool.waitingCount);
  }
  const depth = new Map<string, { waiting: number; oldestSeconds: number }>(JOB_NAMES.map((name) => [name, { waiting: 0, oldestSeconds: 0 }]));
  const [table] = await database.prisma.$queryRawUnsafe<{ name: string | null }[]>(`SELECT to_regclass($1)::text AS name`, `${jobSchema}.job`);
  if (table?.name) {
    const rows = await database.prisma.$queryRawUnsafe<{ name: string; waiting: bigint | number; oldest_seconds: number | null }[]>(
      `SELECT name, count(*) AS waiting, extract(epoch FROM now() - min(created_on))::float8 AS oldest_seconds
         FROM ${jobSchema}.job WHERE state IN ('created', 'retry') GROUP BY name`,
    );
    for (const row of rows) depth.set(row.name, { waiting: Number(row.waiting), oldestSeconds: Math.max(0, row.oldest_seconds ?? 0) });
  }
  for (const [queue, { waiting, oldestSeconds }] of depth) {
    metrics.queueDepth.set({ queue }, waiting);
    metrics.queueOldestAge.set({ queue }, oldestSeconds);
  }
}

/** The metrics in Prometheus's text format, and its content type. */
export async function renderMetrics(): Promise<{ text: string; contentType: string }> {
  const { registry } = getMetrics();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
