/**
 * A tool's own threshold in words, its metric said once. k6 keeps the expression apart from its metric
 * (`p(95)<35` under `http_req_duration`): both are needed. artillery's ensure checks are whole
 * comparisons that name their metric (`http.response_time.p95 < 35`): naming the metric again read
 * "http.response_time.p95 http.response_time.p95 < 35".
 */
import type { ToolThreshold } from "./run";

type Threshold = Pick<ToolThreshold, "metric" | "expression">;

/** The metric to name beside the expression, or null when the expression names it already (as a whole name, not a part of one). */
export function thresholdSubject({ metric, expression }: Threshold): string | null {
  const escaped = metric.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.])${escaped}($|[^\\w.])`).test(expression) ? null : metric;
}

/** "http_req_duration p(95)<35"; "http.response_time.p95 < 35". */
export function describeThreshold(threshold: Threshold): string {
  const subject = thresholdSubject(threshold);
  return subject === null ? threshold.expression : `${subject} ${threshold.expression}`;
}
