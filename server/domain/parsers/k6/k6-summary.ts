/**
 * k6's legacy end-of-test summary, `--summary-export=summary.json`: flat metric objects; a threshold maps
 * to a boolean where `true` means the threshold FAILED; `root_group.checks` is an object keyed by check
 * name. Times are milliseconds. It states neither a metric's type nor its `contains`, so the type is read
 * off the stats a metric has (rate: passes/fails; gauge: value; counter: count and rate; trend: any other
 * stats) and its unit is known only for k6's built-in metrics. The mapping the three k6 summaries share
 * (endpoints, groups, custom metrics, thresholds): `k6-metrics.ts`.
 */
import { z } from "zod";
import type { ParsedRun, ToolCheck } from "../../run";
import {
  buildK6SummaryRun,
  k6CheckSchema,
  toToolCheck,
  type K6Check,
  type K6MetricType,
  type K6MetricView,
} from "./k6-metrics";
import { parseWire } from "../wire";

const legacyMetricSchema = z.object({ thresholds: z.record(z.string(), z.boolean()).optional() }).catchall(z.number());

interface LegacyGroup {
  name: string;
  path: string;
  groups?: Record<string, LegacyGroup> | undefined;
  checks?: Record<string, K6Check> | undefined;
}
const legacyGroupSchema: z.ZodType<LegacyGroup> = z.object({
  name: z.string(),
  path: z.string(),
  groups: z
    .record(
      z.string(),
      z.lazy(() => legacyGroupSchema),
    )
    .optional(),
  checks: z.record(z.string(), k6CheckSchema).optional(),
});

export const k6SummaryExportSchema = z.object({
  root_group: legacyGroupSchema,
  metrics: z.record(z.string(), legacyMetricSchema),
});

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

/** The legacy export does not name a metric's type: it shows in which stats k6 wrote for it. */
function legacyTypeOf(stats: Record<string, unknown>): K6MetricType | null {
  const has = (stat: string): boolean => typeof stats[stat] === "number";
  if (has("passes") && has("fails")) return "rate";
  if (has("value")) return "gauge";
  if (has("count") && has("rate")) return "counter";
  // Trend stats are whatever summaryTrendStats lists: avg, min, med, max, p(N), count.
  return Object.keys(stats).some(has) ? "trend" : null;
}

function collectLegacyChecks(group: LegacyGroup, into: ToolCheck[]): void {
  for (const check of Object.values(group.checks ?? {})) into.push(toToolCheck(check, group.path));
  for (const child of Object.values(group.groups ?? {})) collectLegacyChecks(child, into);
}
