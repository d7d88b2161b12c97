/**
 * artillery 2.x `--output report.json`: `{aggregate, intermediate[]}`, each with `counters`, `rates`,
 * `summaries` (`{min, max, count, mean, p50, median, p75, p90, p95, p99, p999}` in ms) and
 * `firstMetricAt`/`lastMetricAt` (epoch ms). `intermediate[]` are artillery's 10 s windows (SSMS
 * `normalizeTs`), `period` being the window's wall-clock-aligned start, so the first and last are partial;
 * `period` is a string there, and each carries a stray top-level `"http.request_rate": null` (SSMS
 * mergeBuckets' quirk), ignored. Endpoints, counts and run metrics: `artillery-metrics.ts`.
 * - timeline (JSON): a point per window clipped to the run: atMs = its end, requests and failures per
 *   second, p50/p95. No users: artillery drives arrivals (an open model) and reports no concurrency;
 *   sessions still in flight at a window's end (created − completed − failed) are mostly 0 and say little.
 */
import { z } from "zod";
import type { ParsedRun, TimelinePoint } from "../../run";
import { aggregateTally, buildArtilleryRun, endpointTallies, type MetricView, type Tally } from "./artillery-metrics";
import { parseWire } from "../wire";

/** SSMS `normalizeTs` windows, fixed at 10 s (the console reporter also labels them `period + 10 s`). */
const PERIOD_MS = 10_000;

const numberMap = z.record(z.string(), z.number().nullable());
/** Epoch milliseconds a date can hold (to year 275760). */
const epochMs = z.number().min(0).max(8.64e15);
const periodSchema = z.object({
  // Not nonnegative: a script's own counters may go down.
  counters: z.record(z.string(), z.number()).optional(),
  rates: numberMap.optional(),
  summaries: z.record(z.string(), numberMap).optional(),
  firstMetricAt: epochMs.optional(),
  lastMetricAt: epochMs.optional(),
  period: z.union([
    epochMs,
    z
      .string()
      .regex(/^\d{1,16}$/, "expected epoch milliseconds")
      .transform(Number)
      .pipe(epochMs),
  ]),
});
type ArtilleryPeriod = z.infer<typeof periodSchema>;

export const artilleryReportSchema = z.object({
  aggregate: periodSchema.extend({ period: periodSchema.shape.period.optional() }),
  intermediate: z.array(periodSchema).default([]),
});

export function parseArtilleryJson(document: unknown): ParsedRun {
  return readArtilleryJson(document, "");
}

export function readArtilleryJson(document: unknown, pathPrefix: string): ParsedRun {
  const report = parseWire(artilleryReportSchema, document, "artillery report.json", pathPrefix);
  const { firstMetricAt: first, lastMetricAt: last } = report.aggregate;
  const spanMs = first !== undefined && last !== undefined && last > first ? last - first : null;
  const run = buildArtilleryRun("artillery-json", viewOf(report.aggregate), spanMs);
  if (first !== undefined) run.startedAt = new Date(first).toISOString();
  run.durationSeconds = spanMs === null ? null : spanMs / 1000;
  const periods = [...report.intermediate].sort((a, b) => a.period - b.period);
  if (periods.length > 0) attachTimelines(run, periods, first ?? null, last ?? null);
  return run;
}

function viewOf(period: Pick<ArtilleryPeriod, "counters" | "rates" | "summaries">): MetricView {
  const summaries: MetricView["summaries"] = {};
  for (const [name, stats] of Object.entries(period.summaries ?? {})) summaries[name] = withoutNulls(stats);
  return { counters: period.counters ?? {}, rates: withoutNulls(period.rates ?? {}), summaries };
}

function withoutNulls(values: Record<string, number | null>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, number] => entry[1] !== null));
}

function attachTimelines(
  run: ParsedRun,
  periods: readonly ArtilleryPeriod[],
  runFirst: number | null,
  runLast: number | null,
): void {
  const slices = periods.map((period) => {
    const view = viewOf(period);
    // The window, clipped to the run: the first and last windows are partial.
    const startMs = Math.max(period.period, runFirst ?? period.period);
    const endMs = Math.min(period.period + PERIOD_MS, runLast ?? period.period + PERIOD_MS);
    return { view, startMs, endMs, endpoints: endpointTallies(view) };
  });
  const pointOf = (slice: (typeof slices)[number], tally: Tally | undefined): TimelinePoint => {
    const seconds = (slice.endMs - slice.startMs) / 1000;
    const rate = (n: number): number | null => (seconds > 0 ? n / seconds : null);
    return {
      atMs: slice.endMs,
      requestsPerSecond: rate(tally?.requests ?? 0),
      failuresPerSecond: rate(tally?.failures ?? 0),
      p50Ms: tally?.summary?.p50 ?? tally?.summary?.median ?? null,
      p95Ms: tally?.summary?.p95 ?? null,
      users: null,
    };
  };
  run.aggregate.timeline = slices.map((slice) => pointOf(slice, aggregateTally(slice.view)));
  // An endpoint's points are the windows that mention it: its file size bounds them (1,000 endpoints ×
  // 8,000 empty windows would otherwise be 8 million points from a 300 KB file).
  for (const endpoint of run.endpoints) {
    const points = slices.flatMap((slice) => {
      const tally = slice.endpoints.get(endpoint.name);
      return tally ? [pointOf(slice, tally)] : [];
    });
    endpoint.timeline = points.length > 0 ? points : null;
  }
}
