/**
 * hey `-o csv` (hey 0.1.4; what hey counts where: `hey-report.ts`): one row per request that got a
 * response, in completion order; requests that failed with an error are NOT in the file (so its failures
 * are the non-2xx/3xx rows only). Times are seconds with 4 decimals; `offset` is when the request started,
 * counted from hey's start. Kept: response-time (exact percentiles, mean, spread, HDR histogram),
 * status-code; the phase columns are dropped.
 */
import { z } from "zod";
import type { ParsedRun } from "../../run";
import { latencyHistogramOf } from "../../stats/latency-histogram";
import { SAMPLE_PERCENTILES, summarizeSamples } from "../../stats/percentile";
import { readCsvTable, requireColumns } from "../csv-table";
import { capNote, emptyHeyRun, failedResponses, MAX_RESULTS, secondsToMs } from "./hey-report";
import { parseWire } from "../wire";

/** For CSV samples: hey's own 10…99 % plus the ones Benchtrack computes from samples. */
const CSV_PERCENTILES = [...new Set([10, 25, 75, ...SAMPLE_PERCENTILES])].sort((a, b) => a - b);

const secondsCell = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, "expected seconds, e.g. 0.0036")
  .transform(secondsToMs)
  // A thousand-digit "number" passes the pattern but is no time (and would overflow to Infinity).
  .refine((ms) => ms <= 1e9, "seconds beyond any request's latency");

export const heyCsvRowSchema = z.object({
  "response-time": secondsCell,
  "status-code": z.string().trim().regex(/^\d+$/, "expected an HTTP status code, e.g. 200"),
  offset: secondsCell,
});

export function parseHeyCsv(text: string, source: string): ParsedRun {
  const table = readCsvTable(text, source);
  requireColumns(table, ["response-time", "status-code", "offset"], source);
  const latenciesMs = new Float64Array(table.rows.length);
  const statusCodes: Record<string, number> = {};
  let firstStartMs = Number.POSITIVE_INFINITY;
  let lastEndMs = Number.NEGATIVE_INFINITY;
  for (const [index, row] of table.rows.entries()) {
    const where = `${source}: line ${row.line}`;
    const cells = parseWire(heyCsvRowSchema, row.cells, `hey CSV row (${where})`, `${where}: `);
    const latencyMs = cells["response-time"];
    latenciesMs[index] = latencyMs;
    statusCodes[cells["status-code"]] = (statusCodes[cells["status-code"]] ?? 0) + 1;
    firstStartMs = Math.min(firstStartMs, cells.offset);
    lastEndMs = Math.max(lastEndMs, cells.offset + latencyMs);
  }

  const run = emptyHeyRun("hey-csv");
  const { aggregate } = run;
  aggregate.requests = table.rows.length;
  aggregate.failures = failedResponses(statusCodes);
  aggregate.statusCodes = statusCodes;
  aggregate.latency = summarizeSamples(latenciesMs, CSV_PERCENTILES);
  aggregate.histogram = latencyHistogramOf(latenciesMs);
  // `offset` counts from hey's start, which comes before the first request (with -q every worker first
  // waits one tick), so the run is measured from the first request's start to the last response's end.
  // Offsets and times carry 4 decimals: the span is rounded back to that precision.
  const spanSeconds = table.rows.length > 0 ? Math.round((lastEndMs - firstStartMs) * 10) / 1e4 : null;
  const durationSeconds = spanSeconds !== null && spanSeconds > 0 ? spanSeconds : null;
  aggregate.throughput = durationSeconds === null ? null : table.rows.length / durationSeconds;
  run.durationSeconds = durationSeconds;
  if (table.rows.length === 0)
    run.notes.push(
      "hey's CSV has no rows: no request got a response (hey leaves requests that failed with an error out of its CSV).",
    );
  if (table.rows.length >= MAX_RESULTS) run.notes.push(capNote("CSV rows"));
  return run;
}
