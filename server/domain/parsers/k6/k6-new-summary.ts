/**
 * k6's `--new-machine-readable-summary` (k6 1.x, its announced future default): `results.metrics` is a LIST
 * of `{name, type, contains, values}`; trend stats are `p90`/`p95` (not `p(95)`) with no count; rates are
 * `{matches, rate, total}`; counters have no rate; checks are `results.checks.results`; there are no
 * threshold results (thresholds appear only inside the embedded script text); `config.duration` is the
 * MEASURED test length in seconds (12.45 s for a 12 s script: durationSeconds only, never the `duration`
 * load setting, which would make every pair of runs look differently loaded); `config.execution`
 * ("local"/"cloud") is kept as load config; executors and scenarios exist only inside the script text and
 * are not read; `metadata` gives k6's version and when the summary was written. Times are milliseconds;
 * `type` and `contains` are stated. The mapping the three k6 summaries share: `k6-metrics.ts`.
 */
import { z } from "zod";
import type { ParsedRun } from "../../run";
import { buildK6SummaryRun, k6CheckSchema, toToolCheck, type K6MetricView } from "./k6-metrics";
import { parseWire } from "../wire";

const newSummaryMetricSchema = z.object({
  name: z.string(),
  type: z.enum(["counter", "gauge", "rate", "trend"]),
  contains: z.string().optional(),
  values: z.record(z.string(), z.number()),
});

export const k6NewSummarySchema = z.object({
  version: z.string(),
  metadata: z
    .object({ generated_at: z.iso.datetime({ offset: true }).optional(), k6_version: z.string().optional() })
    .optional(),
  config: z.object({ duration: z.number().nonnegative().optional(), execution: z.string().optional() }).optional(),
  results: z.object({
    metrics: z.array(newSummaryMetricSchema),
    checks: z.object({ results: z.array(k6CheckSchema).optional() }).optional(),
  }),
});

/** Whether a decoded JSON value has the new summary's shape markers (detection; the schema decides). */
export function isK6NewSummary(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { version, results } = value as { version?: unknown; results?: unknown };
  return (
    typeof version === "string" &&
    typeof results === "object" &&
    results !== null &&
    Array.isArray((results as { metrics?: unknown }).metrics)
  );
}

/** The new summary's stat names as the other two files write them: `p95` → `p(95)`, a rate's `matches` → `passes`. */
function legacyValues(metric: z.infer<typeof newSummaryMetricSchema>): Record<string, number> {
  const values: Record<string, number> = {};
  for (const [stat, value] of Object.entries(metric.values)) {
    const percentile = /^p(\d+(?:\.\d+)?)$/.exec(stat);
    values[percentile ? `p(${percentile[1]})` : stat] = value;
  }
  if (metric.type === "rate" && metric.values.matches !== undefined && metric.values.total !== undefined) {
    values.passes = metric.values.matches;
    values.fails = metric.values.total - metric.values.matches;
  }
  return values;
}

/** Parses a `--new-machine-readable-summary` document (already JSON-decoded). */
export function parseK6NewSummary(document: unknown): ParsedRun {
  const summary = parseWire(k6NewSummarySchema, document, "k6 new machine-readable summary JSON");
  const durationSeconds = summary.config?.duration ?? null;
  const metrics = new Map<string, K6MetricView>();
  for (const metric of summary.results.metrics) {
    const values = legacyValues(metric);
    // Counters carry no rate here; k6's own rate is count / test duration, computed the same way.
    if (metric.type === "counter" && values.rate === undefined && values.count !== undefined && durationSeconds) {
      values.rate = values.count / durationSeconds;
    }
    metrics.set(metric.name, { type: metric.type, contains: metric.contains ?? null, values, thresholds: [] });
  }
  const checks = (summary.results.checks?.results ?? []).map((check) => toToolCheck(check, check.path ?? ""));
  const run = buildK6SummaryRun({ format: "k6-new-summary", metrics, checks, durationSeconds });
  const generatedAt = summary.metadata?.generated_at;
  const execution = summary.config?.execution;
  if (execution !== undefined) run.environment.config.execution = execution;
  return {
    ...run,
    toolVersion: summary.metadata?.k6_version ?? null,
    // The summary is written when the test ends: it started `duration` seconds earlier.
    startedAt:
      generatedAt && durationSeconds !== null
        ? new Date(Date.parse(generatedAt) - durationSeconds * 1000).toISOString()
        : null,
    notes: [
      ...run.notes,
      "k6's new summary holds no threshold results (only the script text) and no p99 unless summaryTrendStats asks for it.",
      "Scenarios and executors appear only inside the script text of k6's new summary: they are not read.",
    ],
  };
}
