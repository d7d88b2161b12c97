/**
 * ghz `-O csv` output: one row per call, `duration (ms),status,error`. ghz writes it with a Go text
 * template, not a CSV writer (bojand/ghz printer/template.go `csvTmpl`):
 *
 *     \n duration (ms),status,error {{range .Details}}\n {{formatMilli .Latency.Seconds}},{{.Status}},{{.Error}} {{end}}\n
 *
 * so the file starts with an empty line, the duration is `%4.2f` milliseconds (10 µs resolution), the
 * status is the gRPC code name (`OK`, `Canceled`, `Unavailable`, `Internal`…, or `Code(17)`), and the
 * error text is written raw: never quoted, it may itself hold commas. A row is therefore read by a line
 * grammar (duration, status, then everything after the second comma is the error), not by a CSV parser.
 *
 * One file measures one method, so it becomes one endpoint named after the file (`GetListing.csv` →
 * `GetListing`, protocol gRPC); several files (one per method, as CI runs them) make one run. A single
 * file sent as a bare body has no name: it gives no endpoint, only the aggregate (`?endpoint=` names it).
 *
 * Kept: calls, failures (non-OK rows), counts by status, errors by message, and from the OK calls exact
 * percentiles (ghz's 10/25/50/75/90/95/99 plus 99.9), min/max/stdDev and an HDR histogram; the
 * aggregate pools every file's OK calls the same way. As in ghz's JSON report, latency covers the OK calls
 * only (ghz's default without `--count-errors`), except the mean, which is over all calls as the JSON
 * report's `average` is: one method's mean means the same in both formats. Percentiles interpolate between ranks (k6's method, as everywhere samples
 * are at hand) on 0.01 ms values, so they can differ slightly from ghz's nearest-rank ones on nanoseconds.
 * Dropped (not in the file): start time, duration and throughput (no timestamps), load options, the
 * fully qualified method name. Canceled/Unavailable calls get ghz-calls.ts's shutdown note.
 */
import { InputError } from "../../input-error";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../../run";
import { latencyHistogramOf } from "../../stats/latency-histogram";
import { summarizeSamples } from "../../stats/percentile";
import { addCounts } from "../aggregate";
import { GHZ_SAMPLE_PERCENTILES, shutdownNoteOf } from "./ghz-calls";
import { sourceOf, type UploadedFile } from "../uploaded-file";

/** The longest latency a call may state: 10^9 ms (11.6 days); beyond, the file is garbled. */
const MAX_DURATION_MS = 1e9;
const HEADER_LINE = /^duration \(ms\),status,error$/;
/** `7.05,OK,` / `15.87,Internal,rpc error: code = Internal desc = …, with commas`. */
const ROW_LINE = /^\s*(\d+(?:\.\d+)?),([A-Za-z][A-Za-z0-9]*|Code\(\d+\)),(.*)$/;
const OK_STATUS = "OK";

/** The calls of one file, as counted from its rows. */
interface GhzCalls {
  count: number;
  /** Sum of every call's duration, errors included (ghz's `average` is over all calls). */
  totalMs: number;
  okLatenciesMs: number[];
  statusCodes: Record<string, number>;
  errors: Record<string, number>;
}

export function parseGhzCsv(files: readonly UploadedFile[]): ParsedRun {
  if (files.length === 0)
    throw new InputError("malformed", "No ghz CSV file in the upload", [
      { path: "files", message: "expected at least one file" },
    ]);
  const unnamed = files.length === 1 && files[0]?.name === null;
  const endpoints: EndpointResult[] = [];
  const all: GhzCalls[] = [];
  for (const [index, file] of files.entries()) {
    const source = sourceOf(file, index);
    const calls = readCalls(file.text, source);
    all.push(calls);
    if (unnamed) continue;
    if (file.name === null) {
      throw new InputError("malformed", `${source} has no file name to name its gRPC method`, [
        { path: source, message: "send each ghz CSV as a named file (GetListing.csv), one per method" },
      ]);
    }
    endpoints.push(endpointOf(methodNameOfFile(file.name), calls));
  }

  const run: ParsedRun = {
    ...emptyRun("ghz-csv", "ghz"),
    endpoints,
    aggregate: endpointOf(AGGREGATE_NAME, mergeCalls(all)),
    // ghz -O csv does not say why the run ended; the statuses alone identify ghz's own cut-offs.
    notes: unnamed
      ? shutdownNoteOf(null, all[0]?.statusCodes ?? {}, null)
      : endpoints.flatMap((endpoint) => shutdownNoteOf(endpoint.name, endpoint.statusCodes ?? {}, null)),
  };
  run.environment.config.protocol = "grpc";
  return run;
}

/** `reports/GetListing.csv` → `GetListing` (no folder, no extension). */
function methodNameOfFile(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, "");
  const stem = base.replace(/\.[^.]*$/, "");
  return stem === "" ? base : stem;
}

function readCalls(text: string, source: string): GhzCalls {
  const calls: GhzCalls = { count: 0, totalMs: 0, okLatenciesMs: [], statusCodes: {}, errors: {} };
  let headerSeen = false;
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.replace(/\r$/, "");
    if (line.trim() === "") continue; // ghz starts the file with an empty line and ends it with one
    const where = `${source}: line ${index + 1}`;
    if (!headerSeen) {
      if (!HEADER_LINE.test(line.trim()))
        throw malformedLine(where, `expected ghz's CSV header "duration (ms),status,error", got "${clip(line)}"`);
      headerSeen = true;
      continue;
    }
    const match = ROW_LINE.exec(line);
    const [, duration, status, error] = match ?? [];
    if (duration === undefined || status === undefined || error === undefined) {
      throw malformedLine(where, `expected "<duration ms>,<status>,<error>", got "${clip(line)}"`);
    }
    const durationMs = Number(duration);
    if (!(durationMs <= MAX_DURATION_MS))
      throw malformedLine(where, `a duration of ${clip(duration)} ms is no call's latency`);
    calls.count++;
    calls.totalMs += durationMs;
    calls.statusCodes[status] = (calls.statusCodes[status] ?? 0) + 1;
    if (status === OK_STATUS) calls.okLatenciesMs.push(durationMs);
    if (error !== "") calls.errors[error] = (calls.errors[error] ?? 0) + 1;
  }
  if (!headerSeen)
    throw malformedLine(`${source}: line 1`, 'empty file: expected the header "duration (ms),status,error"');
  return calls;
}

function mergeCalls(parts: readonly GhzCalls[]): GhzCalls {
  const merged: GhzCalls = {
    count: 0,
    totalMs: 0,
    okLatenciesMs: [],
    statusCodes: addCounts(parts.map((part) => part.statusCodes)),
    errors: addCounts(parts.map((part) => part.errors)),
  };
  for (const part of parts) {
    merged.count += part.count;
    merged.totalMs += part.totalMs;
    for (const latency of part.okLatenciesMs) merged.okLatenciesMs.push(latency);
  }
  return merged;
}

function endpointOf(name: string, calls: GhzCalls): EndpointResult {
  const result = emptyEndpoint(name);
  result.protocol = "grpc";
  result.requests = calls.count;
  result.failures = calls.count - calls.okLatenciesMs.length;
  result.statusCodes = { ...calls.statusCodes };
  result.errors = { ...calls.errors };
  const ok = summarizeSamples(calls.okLatenciesMs, GHZ_SAMPLE_PERCENTILES);
  result.latency = { ...ok, meanMs: ok.meanMs === null ? null : calls.totalMs / calls.count };
  result.histogram = latencyHistogramOf(calls.okLatenciesMs);
  return result;
}

function malformedLine(where: string, message: string): InputError {
  return new InputError("malformed", `Not a ghz CSV row (${where}): ${message}`, [{ path: where, message }]);
}

function clip(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
