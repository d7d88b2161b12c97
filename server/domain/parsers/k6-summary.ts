/**
 * k6 end-of-test summaries, in the two JSON shapes k6 writes:
 * - `--summary-export=summary.json` (legacy): flat metric objects; a threshold maps to a boolean where
 *   `true` means the threshold FAILED; `root_group.checks` is an object keyed by check name.
 * - `handleSummary(data)` → `JSON.stringify(data)`: `{type, contains, values, thresholds:{expr:{ok}}}`
 *   per metric, where `ok: true` means passed; `root_group.checks` is an array; `state.testRunDurationMs`.
 * - `--new-machine-readable-summary` (k6 1.x, its announced future default): `results.metrics` is a LIST
 *   of `{name, type, contains, values}`; trend stats are `p90`/`p95` (not `p(95)`) with no count; rates
 *   are `{matches, rate, total}`; counters have no rate; checks are `results.checks.results`; there are
 *   no threshold results (thresholds appear only inside the embedded script text); `config.duration`
 *   is the MEASURED test length in seconds (12.45 s for a 12 s script: durationSeconds only, never the
 *   `duration` load setting, which would make every pair of runs look differently loaded); `config.execution`
 *   ("local"/"cloud") is kept as load config; executors and scenarios exist only inside the script text and
 *   are not read; `metadata` gives k6's version and when the summary was written.
 * Times are milliseconds in all three. Metric types: handleSummary and the new summary state `type` and
 * `contains`; the legacy export states neither, so its type is read off the stats a metric has (rate:
 * passes/fails; gauge: value; counter: count and rate; trend: any other stats) and its unit is known
 * only for k6's built-in metrics. See `k6-metrics.ts` for the mapping they share (endpoints, groups,
 * custom metrics, thresholds).
 */
import { z } from "zod";
import type { ParsedRun, ToolCheck } from "../run";
import { buildK6SummaryRun, type K6MetricType, type K6MetricView } from "./k6-metrics";
import { parseWire } from "./wire";

const checkSchema = z.object({
  name: z.string(),
  path: z.string().optional(),
  passes: z.number().int().nonnegative(),
  fails: z.number().int().nonnegative(),
});
type K6Check = z.infer<typeof checkSchema>;

// ---- --summary-export (legacy) ----

const legacyMetricSchema = z
  .object({ thresholds: z.record(z.string(), z.boolean()).optional() })
  .catchall(z.number());

interface LegacyGroup {
  name: string;
  path: string;
  groups?: Record<string, LegacyGroup> | undefined;
  checks?: Record<string, K6Check> | undefined;
}
const legacyGroupSchema: z.ZodType<LegacyGroup> = z.object({
  name: z.string(),
  path: z.string(),
  groups: z.record(z.string(), z.lazy(() => legacyGroupSchema)).optional(),
  checks: z.record(z.string(), checkSchema).optional(),
});

export const k6SummaryExportSchema = z.object({
  root_group: legacyGroupSchema,
  metrics: z.record(z.string(), legacyMetricSchema),
});

// ---- handleSummary ----

const handleSummaryMetricSchema = z.object({
  type: z.enum(["counter", "gauge", "rate", "trend"]),
  contains: z.string().optional(),
  values: z.record(z.string(), z.number()),
  thresholds: z.record(z.string(), z.object({ ok: z.boolean() })).optional(),
});

interface HandleSummaryGroup {
  name: string;
  path: string;
  groups?: HandleSummaryGroup[] | undefined;
  checks?: K6Check[] | undefined;
}
const handleSummaryGroupSchema: z.ZodType<HandleSummaryGroup> = z.object({
  name: z.string(),
  path: z.string(),
  groups: z.array(z.lazy(() => handleSummaryGroupSchema)).optional(),
  checks: z.array(checkSchema).optional(),
});

export const k6HandleSummarySchema = z.object({
  root_group: handleSummaryGroupSchema,
  metrics: z.record(z.string(), handleSummaryMetricSchema),
  options: z.record(z.string(), z.unknown()).optional(),
  state: z.object({ testRunDurationMs: z.number().nonnegative().optional() }).optional(),
});

// ---- --new-machine-readable-summary ----

const newSummaryMetricSchema = z.object({
  name: z.string(),
  type: z.enum(["counter", "gauge", "rate", "trend"]),
  contains: z.string().optional(),
  values: z.record(z.string(), z.number()),
});

export const k6NewSummarySchema = z.object({
  version: z.string(),
  metadata: z.object({ generated_at: z.iso.datetime({ offset: true }).optional(), k6_version: z.string().optional() }).optional(),
  config: z.object({ duration: z.number().nonnegative().optional(), execution: z.string().optional() }).optional(),
  results: z.object({
    metrics: z.array(newSummaryMetricSchema),
    checks: z.object({ results: z.array(checkSchema).optional() }).optional(),
  }),
});

/** Whether a decoded JSON value has the new summary's shape markers (detection; the schema decides). */
export function isK6NewSummary(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { version, results } = value as { version?: unknown; results?: unknown };
  return typeof version === "string" && typeof results === "object" && results !== null && Array.isArray((results as { metrics?: unknown }).metrics);
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
    startedAt: generatedAt && durationSeconds !== null ? new Date(Date.parse(generatedAt) - durationSeconds * 1000).toISOString() : null,
    notes: [
      ...run.notes,
      "k6's new summary holds no threshold results (only the script text) and no p99 unless summaryTrendStats asks for it.",
      "Scenarios and executors appear only inside the script text of k6's new summary: they are not read.",
    ],
  };
}

/** Parses a `--summary-export` document (already JSON-decoded). */
export function parseK6SummaryExport(document: unknown): ParsedRun {
  const summary = parseWire(k6SummaryExportSchema, document, "k6 --summary-export JSON");
  const metrics = new Map<string, K6MetricView>();
  for (const [key, metric] of Object.entries(summary.metrics)) {
    const { thresholds = {}, ...stats } = metric;
    const type = legacyTypeOf(stats);
    const values: Record<string, number> = {};
    for (const [stat, value] of Object.entries(stats)) {
      if (typeof value === "number") values[stat === "value" && type === "rate" ? "rate" : stat] = value;
    }
    metrics.set(key, {
      type,
      contains: null,
      values,
      // In the legacy export `true` means the threshold was crossed, i.e. FAILED.
      thresholds: Object.entries(thresholds).map(([expression, failed]) => ({ expression, passed: !failed })),
    });
  }
  const checks: ToolCheck[] = [];
  collectLegacyChecks(summary.root_group, checks);
  return buildK6SummaryRun({ format: "k6-summary", metrics, checks, durationSeconds: null });
}

/** Parses a `handleSummary` data document (already JSON-decoded). */
export function parseK6HandleSummary(document: unknown): ParsedRun {
  const summary = parseWire(k6HandleSummarySchema, document, "k6 handleSummary JSON");
  const metrics = new Map<string, K6MetricView>();
  for (const [key, metric] of Object.entries(summary.metrics)) {
    metrics.set(key, {
      type: metric.type,
      contains: metric.contains ?? null,
      values: metric.values,
      thresholds: Object.entries(metric.thresholds ?? {}).map(([expression, { ok }]) => ({ expression, passed: ok })),
    });
  }
  const checks: ToolCheck[] = [];
  collectHandleSummaryChecks(summary.root_group, checks);
  const durationMs = summary.state?.testRunDurationMs;
  return buildK6SummaryRun({
    format: "k6-handle-summary",
    metrics,
    checks,
    durationSeconds: durationMs === undefined ? null : durationMs / 1000,
  });
}

/** The legacy export does not name a metric's type: it shows in which stats k6 wrote for it. */
function legacyTypeOf(stats: Record<string, unknown>): K6MetricType | null {
  const has = (stat: string): boolean => typeof stats[stat] === "number";
  if (has("passes") && has("fails")) return "rate";
  if (has("value")) return "gauge";
  if (has("count") && has("rate")) return "counter";
  // Trend stats are whatever summaryTrendStats lists: avg, min, med, max, p(N), count.
  return Object.keys(stats).some(has) ? "trend" : null;
}

function toToolCheck(check: K6Check, groupPath: string): ToolCheck {
  return { name: check.name, group: groupPath === "" ? null : groupPath, passes: check.passes, fails: check.fails };
}

function collectLegacyChecks(group: LegacyGroup, into: ToolCheck[]): void {
  for (const check of Object.values(group.checks ?? {})) into.push(toToolCheck(check, group.path));
  for (const child of Object.values(group.groups ?? {})) collectLegacyChecks(child, into);
}

function collectHandleSummaryChecks(group: HandleSummaryGroup, into: ToolCheck[]): void {
  for (const check of group.checks ?? []) into.push(toToolCheck(check, group.path));
  for (const child of group.groups ?? []) collectHandleSummaryChecks(child, into);
}
