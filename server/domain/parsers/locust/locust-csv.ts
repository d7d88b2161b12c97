/**
 * Locust `--csv=<prefix>` files. `<prefix>_stats.csv` is required: one row per endpoint plus the
 * `Aggregated` row, percentile columns `50%`..`100%` in ms. Optional companions:
 * - `_stats_history.csv`: one row per second, written while the test ran. Its `Aggregated` rows give the
 *   start time, the duration, the peak user count and the aggregate's timeline; with `--csv-full-history`
 *   it also has a row per endpoint (`Type` = method, `Name`) each second, and each endpoint gets its own
 *   timeline. A point keeps `Requests/s`, `Failures/s` (Locust's sliding ~10 s averages), `50%`, `95%` and
 *   `User Count`. Quirks (locust/stats.py `_stats_history_data_rows`, checked on the fixtures):
 *   - without `--csv-full-history` the percentile columns are accumulated since the start of the run
 *     (the last row equals `_stats.csv`), not per window: the timeline leaves them out (null);
 *   - with it they are the current window's, written as `0` until Locust has ~10 s of answers cached
 *     (`int(None or 0)`), and `N/A` before an entry's first request: both become null;
 *   - a history row naming an endpoint that `_stats.csv` does not list is refused.
 * - `_failures.csv`: error message → occurrences per endpoint.
 * - `_exceptions.csv`: exceptions raised in the locustfile; summarised into the run's notes.
 * Files are recognised by their header (names may be missing in an upload), then by name.
 * Dropped: `Median Response Time` (the `50%` column is kept), `Average Content Size`, `Failures/s` of
 * `_stats.csv`, the history's `Total …` columns (running totals, which `_stats.csv` states at the end).
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type EndpointResult,
  type ParsedRun,
  type TimelinePoint,
} from "../../run";
import { aggregateEndpoints } from "../aggregate";
import { readCsvTable, requireColumns, type CsvTable } from "../csv-table";
import { attachLocustFailures, endpointsByKey, locustExceptionNotes, locustKey } from "./locust-failures";
import type { UploadedFile } from "../uploaded-file";
import { parseWire } from "../wire";

type LocustCsvKind = "stats" | "history" | "failures" | "exceptions";

const HEADER_PREFIXES: readonly { kind: LocustCsvKind; prefix: string }[] = [
  { kind: "stats", prefix: "Type,Name,Request Count" },
  { kind: "history", prefix: "Timestamp,User Count" },
  { kind: "failures", prefix: "Method,Name,Error,Occurrences" },
  { kind: "exceptions", prefix: "Count,Message,Traceback" },
];

/** Whether a text starts like one of Locust's CSV files (used by format detection). */
export function locustCsvKindOf(text: string): LocustCsvKind | null {
  const firstLine = text.replace(/^\uFEFF/, "").trimStart().split(/\r?\n/, 1)[0] ?? "";
  return HEADER_PREFIXES.find(({ prefix }) => firstLine.startsWith(prefix))?.kind ?? null;
}

/** Locust's own file names (`<prefix>_stats.csv`…): a file named so is one of its CSVs, whatever its header. */
export function locustCsvKindFromName(name: string | null): LocustCsvKind | null {
  if (name === null) return null;
  if (name.endsWith("_stats_history.csv")) return "history";
  if (name.endsWith("_stats.csv")) return "stats";
  if (name.endsWith("_failures.csv")) return "failures";
  if (name.endsWith("_exceptions.csv")) return "exceptions";
  return null;
}

/** A number cell; Locust writes `N/A` (and sometimes nothing) where there is no value. */
const numberCell = z
  .string()
  .trim()
  .regex(/^(N\/A|-?\d+(\.\d+)?([eE][+-]?\d+)?)?$/, "expected a number or N/A")
  .transform((cell) => (cell === "" || cell === "N/A" ? null : Number(cell)));
/** A number cell of a column that older Locust versions (or a custom percentile list) may not write. */
const optionalNumberCell = numberCell.optional().transform((value) => value ?? null);
const countCell = z
  .string()
  .trim()
  .regex(/^\d+$/, "expected a whole number")
  .transform((cell) => Number(cell));

const STATS_REQUIRED = [
  "Type",
  "Name",
  "Request Count",
  "Failure Count",
  "Average Response Time",
  "Min Response Time",
  "Max Response Time",
  "Requests/s",
] as const;

export const locustStatsRowSchema = z.object({
  Type: z.string(),
  Name: z.string().min(1, "an endpoint name is required"),
  "Request Count": countCell,
  "Failure Count": countCell,
  "Average Response Time": numberCell,
  "Min Response Time": numberCell,
  "Max Response Time": numberCell,
  "Requests/s": numberCell,
});

export const locustHistoryRowSchema = z.object({
  Timestamp: countCell,
  "User Count": countCell,
  Type: z.string().default(""),
  Name: z.string(),
  "Requests/s": optionalNumberCell,
  "Failures/s": optionalNumberCell,
  "50%": optionalNumberCell,
  "95%": optionalNumberCell,
});
type LocustHistoryRow = z.infer<typeof locustHistoryRowSchema>;

export const locustFailureRowSchema = z.object({
  Method: z.string(),
  Name: z.string(),
  Error: z.string(),
  Occurrences: countCell,
});

export const locustExceptionRowSchema = z.object({
  Count: countCell,
  Message: z.string(),
});

export function parseLocustCsv(files: readonly UploadedFile[]): ParsedRun {
  const byKind = new Map<LocustCsvKind, { source: string; table: CsvTable }>();
  for (const [index, file] of files.entries()) {
    const source = file.name ?? `file ${index + 1}`;
    const kind = locustCsvKindOf(file.text) ?? locustCsvKindFromName(file.name) ?? (files.length === 1 ? "stats" : null);
    if (kind === null) {
      throw new InputError("malformed", `${source} is not one of Locust's CSV files`, [
        { path: `${source}: line 1`, message: "expected a Locust _stats, _stats_history, _failures or _exceptions CSV header" },
      ]);
    }
    if (byKind.has(kind)) {
      throw new InputError("malformed", `Two Locust ${kind} CSV files in one upload`, [
        { path: source, message: `a second _${kind} file; upload one run at a time` },
      ]);
    }
    byKind.set(kind, { source, table: readCsvTable(file.text, source) });
  }
  const stats = byKind.get("stats");
  if (!stats) {
    throw new InputError("malformed", "Locust CSV upload without its _stats.csv file", [
      { path: "files", message: "the <prefix>_stats.csv file is required" },
    ]);
  }

  const { endpoints, aggregateRow } = readStats(stats.source, stats.table);
  const failures = byKind.get("failures");
  if (failures) attachFailures(failures.source, failures.table, endpoints, aggregateRow);
  const aggregate = aggregateRow ?? aggregateEndpoints(endpoints);

  const run: ParsedRun = { ...emptyRun("locust-csv", "locust"), endpoints, aggregate };
  const history = byKind.get("history");
  if (history) applyHistory(history.source, history.table, run, stats.source);
  const exceptions = byKind.get("exceptions");
  if (exceptions) run.notes.push(...exceptionNotes(exceptions.source, exceptions.table));
  return run;
}

function readStats(source: string, table: CsvTable): { endpoints: EndpointResult[]; aggregateRow: EndpointResult | null } {
  requireColumns(table, STATS_REQUIRED, source);
  const percentileColumns = table.header
    .map((column) => ({ column, match: /^(\d+(?:\.\d+)?)%$/.exec(column) }))
    .filter((entry): entry is { column: string; match: RegExpExecArray } => entry.match !== null);
  const endpoints: EndpointResult[] = [];
  let aggregateRow: EndpointResult | null = null;

  for (const row of table.rows) {
    const where = `${source}: line ${row.line}`;
    const cells = parseWire(locustStatsRowSchema, row.cells, `Locust stats row (${where})`, `${where}: `);
    const isAggregate = cells.Name === "Aggregated" && cells.Type === "";
    const result = emptyEndpoint(isAggregate ? AGGREGATE_NAME : cells.Name);
    result.protocol = "http";
    result.method = cells.Type === "" ? null : cells.Type;
    result.requests = cells["Request Count"];
    result.failures = cells["Failure Count"];
    result.throughput = cells["Requests/s"];
    const percentiles: Record<string, number> = {};
    let hundredth: number | null = null;
    for (const { column, match } of percentileColumns) {
      const value = parseWire(numberCell, row.cells[column] ?? "", "percentile cell", `${where}: ${column}`);
      if (value === null) continue;
      // "100%" is Locust's rounded maximum; the exact one is in "Max Response Time".
      if (match[1] === "100") hundredth = value;
      else percentiles[String(Number(match[1]))] = value;
    }
    const hasTimes = cells["Request Count"] > 0;
    result.latency = {
      minMs: hasTimes ? cells["Min Response Time"] : null,
      meanMs: hasTimes ? cells["Average Response Time"] : null,
      maxMs: hasTimes ? (cells["Max Response Time"] ?? hundredth) : null,
      stdDevMs: null,
      percentiles,
    };
    if (isAggregate) aggregateRow = result;
    else endpoints.push(result);
  }
  return { endpoints, aggregateRow };
}

function attachFailures(source: string, table: CsvTable, endpoints: EndpointResult[], aggregate: EndpointResult | null): void {
  requireColumns(table, ["Method", "Name", "Error", "Occurrences"], source);
  const failures = table.rows.map((row) => {
    const where = `${source}: line ${row.line}`;
    const failure = parseWire(locustFailureRowSchema, row.cells, `Locust failures row (${where})`, `${where}: `);
    return { method: failure.Method, name: failure.Name, error: failure.Error, occurrences: failure.Occurrences };
  });
  attachLocustFailures(failures, endpoints, aggregate);
}

function applyHistory(source: string, table: CsvTable, run: ParsedRun, statsSource: string): void {
  requireColumns(table, ["Timestamp", "User Count", "Name"], source);
  const byKey = endpointsByKey(run.endpoints);
  const aggregatePoints: TimelinePoint[] = [];
  const endpointPoints = new Map<EndpointResult, TimelinePoint[]>();
  let first: number | null = null;
  let last: number | null = null;
  let peakUsers: number | null = null;
  for (const row of table.rows) {
    const where = `${source}: line ${row.line}`;
    const entry = parseWire(locustHistoryRowSchema, row.cells, `Locust history row (${where})`, `${where}: `);
    if (entry.Name === "Aggregated" && entry.Type === "") {
      aggregatePoints.push(historyPointOf(entry));
      first = first === null ? entry.Timestamp : Math.min(first, entry.Timestamp);
      last = last === null ? entry.Timestamp : Math.max(last, entry.Timestamp);
      peakUsers = Math.max(peakUsers ?? 0, entry["User Count"]);
      continue;
    }
    const endpoint = byKey.get(locustKey(entry.Type, entry.Name));
    if (!endpoint) {
      const label = `${entry.Type === "" ? "" : `${entry.Type} `}${entry.Name}`;
      throw new InputError("malformed", `${where} names the endpoint "${label}", which ${statsSource} does not list`, [
        { path: where, message: `no "${label}" row in ${statsSource}; upload the files of one run together` },
      ]);
    }
    const points = endpointPoints.get(endpoint) ?? [];
    points.push(historyPointOf(entry));
    endpointPoints.set(endpoint, points);
  }
  // Only --csv-full-history writes per-window percentiles; without it they run since the start, which a
  // timeline must not present as the window's: they are left out (the _stats.csv row holds the final ones).
  const isFullHistory = endpointPoints.size > 0;
  const windowed = isFullHistory ? aggregatePoints : aggregatePoints.map((point) => ({ ...point, p50Ms: null, p95Ms: null }));
  if (windowed.length > 0) run.aggregate.timeline = windowed;
  for (const [endpoint, points] of endpointPoints) endpoint.timeline = points;
  if (first !== null) run.startedAt = new Date(first * 1000).toISOString();
  // Rows are written once a second, so first → last row is the run's length to the second.
  if (first !== null && last !== null) run.durationSeconds = last - first;
  if (peakUsers !== null) run.environment.config.users = peakUsers;
}

/** One history row as a timeline point; Locust's `0` percentile means "no answers in the window yet". */
function historyPointOf(entry: LocustHistoryRow): TimelinePoint {
  return {
    atMs: entry.Timestamp * 1000,
    requestsPerSecond: entry["Requests/s"],
    failuresPerSecond: entry["Failures/s"],
    p50Ms: entry["50%"] === 0 ? null : entry["50%"],
    p95Ms: entry["95%"] === 0 ? null : entry["95%"],
    users: entry["User Count"],
  };
}

function exceptionNotes(source: string, table: CsvTable): string[] {
  requireColumns(table, ["Count", "Message"], source);
  const exceptions = table.rows.map((row) => {
    const where = `${source}: line ${row.line}`;
    const exception = parseWire(locustExceptionRowSchema, row.cells, `Locust exceptions row (${where})`, `${where}: `);
    return { count: exception.Count, message: exception.Message };
  });
  return locustExceptionNotes(exceptions);
}
