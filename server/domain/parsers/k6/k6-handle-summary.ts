/**
 * k6's `handleSummary(data)` → `JSON.stringify(data)`: `{type, contains, values, thresholds:{expr:{ok}}}`
 * per metric, where `ok: true` means passed; `root_group.checks` is an array; `state.testRunDurationMs`.
 * Times are milliseconds. The mapping the three k6 summaries share: `k6-metrics.ts`.
 */
import { z } from "zod";
import type { ParsedRun, ToolCheck } from "../../run";
import { buildK6SummaryRun, k6CheckSchema, toToolCheck, type K6Check, type K6MetricView } from "./k6-metrics";
import { parseWire } from "../wire";

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
  checks: z.array(k6CheckSchema).optional(),
});

export const k6HandleSummarySchema = z.object({
  root_group: handleSummaryGroupSchema,
  metrics: z.record(z.string(), handleSummaryMetricSchema),
  options: z.record(z.string(), z.unknown()).optional(),
  state: z.object({ testRunDurationMs: z.number().nonnegative().optional() }).optional(),
});

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

function collectHandleSummaryChecks(group: HandleSummaryGroup, into: ToolCheck[]): void {
  for (const check of group.checks ?? []) into.push(toToolCheck(check, group.path));
  for (const child of group.groups ?? []) collectHandleSummaryChecks(child, into);
}
