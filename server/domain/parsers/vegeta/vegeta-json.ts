/**
 * `vegeta report -type=json`: durations in ns, `latencies` with Go-style "50th" keys. The figures' meanings
 * and the run they make: `vegeta-report.ts`.
 */
import { z } from "zod";
import type { ParsedRun } from "../../run";
import { buildVegetaRun, NS_PER_MS, NS_PER_SECOND } from "./vegeta-report";
import { parseWire } from "../wire";

const nanoseconds = z.number().nonnegative();
const count = z.number().int().nonnegative();
const timestamp = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "expected an RFC 3339 timestamp");
const byteMetrics = z.object({ total: count, mean: z.number().nullable() });
/** Percentile keys of `latencies` ("50th", "99.9th"); vegeta 12 writes 50th, 90th, 95th, 99th. */
const PERCENTILE_KEY = /^(\d+(?:\.\d+)?)th$/;

export const vegetaReportSchema = z.object({
  latencies: z
    .object({ total: nanoseconds.optional(), mean: nanoseconds, max: nanoseconds, min: nanoseconds.optional() })
    .catchall(nanoseconds),
  bytes_in: byteMetrics.optional(),
  bytes_out: byteMetrics.optional(),
  earliest: timestamp,
  latest: timestamp.optional(),
  end: timestamp.optional(),
  duration: nanoseconds,
  wait: nanoseconds,
  requests: count,
  rate: z.number().nonnegative(),
  throughput: z.number().nonnegative().optional(),
  success: z.number().min(0).max(1),
  status_codes: z.record(z.string().regex(/^\d+$/, "expected a status code"), count).nullish(),
  errors: z.array(z.string()).nullish(),
});

export function parseVegetaJson(document: unknown): ParsedRun {
  return readVegetaJson(document, null);
}

export function readVegetaJson(document: unknown, source: string | null): ParsedRun {
  const report = parseWire(vegetaReportSchema, document, "vegeta JSON report", source ? `${source}: ` : "");
  const hasRequests = report.requests > 0; // with none, vegeta leaves every figure at zero
  const { mean, max, min } = report.latencies;
  const percentiles: Record<string, number> = {};
  for (const [key, ns] of Object.entries(report.latencies)) {
    const match = PERCENTILE_KEY.exec(key);
    if (match?.[1] !== undefined && hasRequests) percentiles[String(Number(match[1]))] = ns / NS_PER_MS;
  }
  const earliestMs = Date.parse(report.earliest);
  return buildVegetaRun("vegeta-json", {
    requests: report.requests,
    rate: report.duration > 0 ? report.rate : null,
    successThroughput: report.duration > 0 && report.throughput !== undefined ? report.throughput : null,
    durationSeconds: hasRequests ? (report.duration + report.wait) / NS_PER_SECOND : null,
    // Go's zero time (0001-01-01) when nothing was sent.
    startedAt: hasRequests && earliestMs > 0 ? new Date(earliestMs).toISOString() : null,
    latency: {
      minMs: hasRequests && min !== undefined ? min / NS_PER_MS : null,
      meanMs: hasRequests ? mean / NS_PER_MS : null,
      maxMs: hasRequests ? max / NS_PER_MS : null,
      stdDevMs: null,
      percentiles,
    },
    success: hasRequests ? report.success : null,
    successTolerance: 1e-9,
    statusCodes: report.status_codes ? { ...report.status_codes } : null,
    statusCodesPath: `${source ? `${source}: ` : ""}status_codes`,
    errors: report.errors ?? [],
    notes: [],
  });
}
