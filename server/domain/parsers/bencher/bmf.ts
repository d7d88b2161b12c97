/**
 * Bencher Metric Format (BMF) JSON (bencher.dev/docs/reference/bencher-metric-format; its JSON Schema
 * `https://bencher.dev/bmf.json`): what Bencher's adapters turn every harness's output into and what a
 * custom harness writes for `bencher run --adapter json`:
 *
 *   { "<benchmark>": { "<measure>": { "value": n, "lower_value"?: n, "upper_value"?: n } } }
 *
 * A benchmark may hold several measures, each named by its slug. Bencher's own measures fix the unit
 * (docs, "How to track custom benchmarks": every project has Latency `latency` in nanoseconds and Throughput
 * `throughput` in operations per second; its adapters add `file-size` (bytes), `build-time` (seconds) and
 * Iai's and Valgrind's counts such as `instructions`, `cycles`, `l1-accesses`, `estimated-cycles`):
 *
 * - `latency` (ns): the benchmark's mean time per operation (ms), as every benchmark parser stores it;
 * - `throughput` (ops/s): its ops/s (higher is better), and 1000 / ops/s as the time per operation when
 *   no latency is given (as benchmark.js's ops/sec is stored), so a falling throughput is a slowdown;
 * - any other measure: a custom metric under its slug, lower is better for Bencher's size, time and count
 *   measures, higher for a slug that names a rate (`…/s`, `…throughput…`), otherwise shown and never judged
 *   (a measure Bencher users create states its direction on Bencher's server, not in the file).
 *
 * `lower_value` and `upper_value` are bounds whose meaning is the adapter's (a confidence interval, or min
 * and max): they are checked to be numbers and not kept. The file states no time, commit or testbed.
 */
import { z } from "zod";
import type { Better, CustomMetric, EndpointResult, ParsedRun } from "../../run";
import { benchmarkResult, benchmarkRun } from "../benchmark";
import { benchmarkLimit, MAX_BENCHMARKS } from "../validate";
import { parseWire } from "../wire";

export const BENCHER_TOOL_NAME = "bencher";

const finite = z.number().refine(Number.isFinite, "expected a finite number");

export const bmfMetricSchema = z
  .object({
    value: finite.describe("The measure's value."),
    lower_value: finite.optional().describe("A lower bound (the adapter's: a confidence interval or the minimum)."),
    upper_value: finite.optional().describe("An upper bound (the adapter's: a confidence interval or the maximum)."),
  })
  .strict();

/** One BMF document (one wire schema). */
export const bmfSchema = z
  .record(z.string().min(1, "a benchmark needs a name"), z.record(z.string().min(1, "a measure needs a name"), bmfMetricSchema))
  .refine((value) => Object.keys(value).length > 0, "expected at least one benchmark");

export type BmfDocument = z.infer<typeof bmfSchema>;

/** Bencher's measures whose smaller values are better (its built-in size, time and count measures). */
const LOWER_MEASURES = new Set([
  "file-size",
  "build-time",
  "instructions",
  "cycles",
  "estimated-cycles",
  "l1-accesses",
  "l2-accesses",
  "l1-hits",
  "l3-hits",
  "ram-hits",
  "ram-accesses",
  "total-accesses",
  "total-read-write",
  "memory",
  "allocations",
]);

/** Which way a measure other than latency and throughput is better, from its slug alone. */
export function directionOfMeasure(slug: string): Better | null {
  if (LOWER_MEASURES.has(slug)) return "lower";
  if (/throughput|\/s$|per[-_ ]second/i.test(slug)) return "higher";
  return null;
}

/** Whether a decoded JSON object has BMF's shape: every key a benchmark of measures of `{value, …}`. */
export function isBmfDocument(value: Record<string, unknown>): boolean {
  const benchmarks = Object.values(value);
  if (benchmarks.length === 0) return false;
  return benchmarks.every((measures) => {
    if (measures === null || typeof measures !== "object" || Array.isArray(measures)) return false;
    const metrics = Object.values(measures as Record<string, unknown>);
    return metrics.length > 0 && metrics.every(isBmfMetric);
  });
}

function isBmfMetric(metric: unknown): boolean {
  if (metric === null || typeof metric !== "object" || Array.isArray(metric)) return false;
  const keys = Object.keys(metric);
  return typeof (metric as { value?: unknown }).value === "number" && keys.every((key) => key === "value" || key === "lower_value" || key === "upper_value");
}

/** One benchmark's measures as its result. */
function benchmarkOf(name: string, measures: Record<string, z.infer<typeof bmfMetricSchema>>): EndpointResult {
  const latencyNs = measures.latency?.value;
  const throughput = measures.throughput?.value;
  const metrics: Record<string, CustomMetric> = {};
  for (const [slug, metric] of Object.entries(measures)) {
    if (slug === "latency" || slug === "throughput") continue;
    metrics[slug] = { value: metric.value, unit: slug, better: directionOfMeasure(slug) };
  }
  const meanMs = latencyNs !== undefined && latencyNs >= 0 ? latencyNs * 1e-6 : throughput !== undefined && throughput > 0 ? 1000 / throughput : null;
  if (latencyNs !== undefined && latencyNs < 0) metrics.latency = { value: latencyNs, unit: "ns", better: "lower" };
  return benchmarkResult({
    name,
    summary: meanMs === null ? null : { meanMs, samples: null },
    opsPerSecond: throughput !== undefined && throughput > 0 ? throughput : null,
    metrics,
  });
}

/** A BMF document (already decoded) as a run; `pathPrefix` places its errors in a larger file. */
export function parseBmfDocument(document: unknown, pathPrefix = ""): ParsedRun {
  if (document !== null && typeof document === "object" && !Array.isArray(document)) {
    const count = Object.keys(document).length;
    if (count > MAX_BENCHMARKS) benchmarkLimit(count, pathPrefix || "(document)");
  }
  const bmf = parseWire(bmfSchema, document, "Bencher Metric Format (BMF) JSON", pathPrefix);
  return benchmarkRun("bencher-bmf", BENCHER_TOOL_NAME, Object.entries(bmf).map(([name, measures]) => benchmarkOf(name, measures)));
}

export function parseBmf(document: unknown): ParsedRun {
  return parseBmfDocument(document);
}
