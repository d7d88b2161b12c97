/**
 * What vegeta's reports (github.com/tsenart/vegeta, v12) share: the run built from one report's figures,
 * whichever type (`vegeta-json.ts`, `vegeta-text.ts`), the histogram's run (`vegeta-hist.ts`), and Go
 * durations as vegeta prints them. vegeta reports the whole attack, never per target, so a run has NO
 * endpoints and everything is on the aggregate (an upload names a single-target attack with ?endpoint=).
 *
 * What the figures mean (lib/metrics.go, lib/reporters.go, lib/histogram.go, lib/attack.go):
 * - A request is a success when its code is 200..399 (`Metrics.Add`); code 0 is a request that got no
 *   response (dial/timeout error). `success` = successes / requests. failures = the requests of every
 *   other code in `status_codes`, cross-checked with `success` (a disagreement becomes a note).
 * - `rate` = requests / (latest − earliest): ALL requests per second over the attack. `throughput` =
 *   SUCCESSFUL requests / (attack + wait). Benchtrack's throughput is requests/s of all requests (failures
 *   are counted apart), so it is `rate`; vegeta's `throughput` is kept as the `success_throughput` metric.
 *   With a zero-length attack vegeta leaves `rate` undivided, so throughput is then null.
 * - Durations are ns in JSON; the text report prints Go duration strings rounded to the unit below the
 *   value's own (`11.996s` to the ms, `5.633ms` to the µs). durationSeconds = attack + wait (vegeta's
 *   "total": first request sent → last response), startedAt = `earliest` (the text report has no time).
 * - Percentiles are vegeta's own t-digest estimates, kept as given; `errors` is the SET of distinct error
 *   strings without counts, so it becomes a note, never an `errors` map with invented counts.
 * - Dropped: bytes in/out, `latencies.total` (= mean × requests), `wait` on its own, `latest`/`end`.
 */
import { InputError, type InputErrorDetail } from "../../input-error";
import { emptyRun, type FormatId, type LatencySummary, type ParsedRun } from "../../run";
import { sumOfCounts } from "../aggregate";

export const NS_PER_MS = 1e6;
export const NS_PER_SECOND = 1e9;

/** One report's figures in Benchtrack units, whichever report type they came from. */
export interface VegetaFigures {
  requests: number;
  /** vegeta's `rate` (all requests/s), null when the attack lasted 0 s. */
  rate: number | null;
  successThroughput: number | null;
  durationSeconds: number | null;
  startedAt: string | null;
  latency: LatencySummary;
  /** Success ratio 0..1 as the report gives it, and how far its rounding lets it stray. */
  success: number | null;
  successTolerance: number;
  statusCodes: Record<string, number> | null;
  /** Where status codes come from, for errors: a JSON path or `<source>: line N`. */
  statusCodesPath: string;
  errors: readonly string[];
  notes: string[];
}

export function buildVegetaRun(format: FormatId, figures: VegetaFigures): ParsedRun {
  const run = emptyVegetaRun(format);
  const aggregate = run.aggregate;
  const { requests, statusCodes } = figures;
  aggregate.requests = requests;
  aggregate.statusCodes = statusCodes;
  aggregate.latency = figures.latency;
  aggregate.throughput = requests > 0 ? figures.rate : null;
  run.startedAt = figures.startedAt;
  run.durationSeconds = figures.durationSeconds;
  run.notes.push(...figures.notes);
  if (statusCodes) {
    const counted = sumOfCounts(statusCodes);
    if (counted !== requests)
      throw malformed(figures.statusCodesPath, `status codes add up to ${counted}, not the ${requests} requests`);
    aggregate.failures = Object.entries(statusCodes).reduce((sum, [code, n]) => (isSuccess(code) ? sum : sum + n), 0);
    const successes = requests - aggregate.failures;
    if (figures.success !== null && Math.abs(successes / requests - figures.success) > figures.successTolerance) {
      run.notes.push(
        `vegeta's success ratio (${(figures.success * 100).toFixed(2)}%) disagrees with its status codes (${successes} of ${requests} in 200–399); failures are counted from the status codes.`,
      );
    }
  } else if (figures.success !== null && figures.successTolerance < 1e-6) {
    aggregate.failures = requests - Math.round(figures.success * requests); // exact: success = successes / requests
  } else if (requests === 0) {
    aggregate.failures = 0;
  }
  if (figures.successThroughput !== null && requests > 0) {
    run.metrics.success_throughput = { value: figures.successThroughput, unit: "req/s", better: "higher" };
  }
  if (figures.errors.length > 0) run.notes.push(errorsNote(figures.errors));
  return run;
}

/** vegeta's rule (lib/metrics.go `Add`): codes 200..399 succeed; 0 (no response) and the rest fail. */
function isSuccess(code: string): boolean {
  const value = Number(code);
  return value >= 200 && value < 400;
}

const MAX_LISTED_ERRORS = 10;

function errorsNote(errors: readonly string[]): string {
  const listed = errors
    .slice(0, MAX_LISTED_ERRORS)
    .map((error) => `"${error.length > 200 ? `${error.slice(0, 200)}…` : error}"`);
  const more = errors.length > MAX_LISTED_ERRORS ? `; and ${errors.length - MAX_LISTED_ERRORS} more` : "";
  const s = errors.length === 1 ? "" : "s";
  return `vegeta listed ${errors.length} distinct error${s} without counting them: ${listed.join("; ")}${more}.`;
}

/** A vegeta run: one HTTP attack, everything on the aggregate. */
export function emptyVegetaRun(format: FormatId): ParsedRun {
  const run = emptyRun(format, "vegeta");
  run.environment.config.protocol = "http";
  run.aggregate.protocol = "http";
  return run;
}

const GO_DURATION = /^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
const NS_PER_UNIT: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** A Go duration string (`time.Duration.String`/`ParseDuration`): "1.453ms", "850µs", "1m2.5s", "0s", "0" → ns. */
export function goDurationNsOf(text: string, where: string): number {
  if (text === "0") return 0;
  if (!GO_DURATION.test(text)) throw malformed(where, `"${text}" is not a Go duration (e.g. 1.453ms, 850µs, 1m2.5s)`);
  let ns = 0;
  for (const [, value, unit] of text.matchAll(GO_DURATION_PART))
    ns += Number(value) * (NS_PER_UNIT[unit ?? ""] ?? Number.NaN);
  return ns;
}

export function malformed(path: string, message: string): InputError {
  const detail: InputErrorDetail = { path, message };
  return new InputError("malformed", `Invalid vegeta report at ${path}: ${message}`, [detail]);
}
