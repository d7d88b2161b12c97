/**
 * k6 end-of-test summaries, in the two JSON shapes k6 writes:
 * - `--summary-export=summary.json` (legacy): flat metric objects; a threshold maps to a boolean where
 *   `true` means the threshold FAILED; `root_group.checks` is an object keyed by check name.
 * - `handleSummary(data)` → `JSON.stringify(data)`: `{type, contains, values, thresholds:{expr:{ok}}}`
 *   per metric, where `ok: true` means passed; `root_group.checks` is an array; `state.testRunDurationMs`.
 * Times are milliseconds in both. See `k6-metrics.ts` for the mapping they share.
 */
import { z } from "zod";
import type { ParsedRun, ToolCheck } from "../run";
import { buildK6SummaryRun, type K6MetricView } from "./k6-metrics";
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

/** Parses a `--summary-export` document (already JSON-decoded). */
export function parseK6SummaryExport(document: unknown): ParsedRun {
  const summary = parseWire(k6SummaryExportSchema, document, "k6 --summary-export JSON");
  const metrics = new Map<string, K6MetricView>();
  for (const [key, metric] of Object.entries(summary.metrics)) {
    const { thresholds = {}, ...stats } = metric;
    const values: Record<string, number> = {};
    for (const [stat, value] of Object.entries(stats)) {
      if (typeof value === "number") values[stat === "value" && "passes" in stats ? "rate" : stat] = value;
    }
    metrics.set(key, {
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
