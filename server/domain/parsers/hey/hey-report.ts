/**
 * What hey's two outputs share (`hey-text.ts`, `hey-csv.ts`). hey (github.com/rakyll/hey, checked on 0.1.4,
 * Debian's `hey`) prints neither the URL nor the load settings (-c, -q, -n, -z), so a run has no endpoint
 * (the aggregate holds everything; `?endpoint=` names it) and no load config beyond `protocol: "http"`.
 *
 * How hey 0.1.4 counts (requester/report.go, print.go): a request either got an HTTP response (any
 * status) or failed with a Go error (dial, timeout…). Slowest/Fastest/Average, the histogram, the latency
 * distribution and the status codes cover only the responses; errors are listed apart under
 * "Error distribution" (`  [count]\tmessage`, printed only when there are some); Requests/sec counts both.
 * Here requests = responses + errors, failures = responses whose status is not 2xx/3xx + errors.
 */
import { emptyRun, type ParsedRun } from "../../run";

/** hey records at most this many results for its distributions, status codes and CSV rows. */
export const MAX_RESULTS = 1_000_000;

/** A hey run: one unnamed HTTP target, everything on the aggregate. */
export function emptyHeyRun(format: "hey-text" | "hey-csv"): ParsedRun {
  const run = emptyRun(format, "hey");
  run.environment.config.protocol = "http";
  run.aggregate.protocol = "http";
  return run;
}

/** Responses whose status is not 2xx or 3xx. */
export function failedResponses(statusCodes: Readonly<Record<string, number>>): number {
  return Object.entries(statusCodes).reduce((sum, [code, count]) => (/^[23]\d\d$/.test(code) ? sum : sum + count), 0);
}

/** Seconds as printed ("0.0017") → ms, shifting the decimal point in the text so no binary error creeps in. */
export function secondsToMs(seconds: string): number {
  return Number(`${seconds}e3`);
}

export function capNote(what: string): string {
  return `hey keeps only its first ${MAX_RESULTS.toLocaleString("en-US")} results: its ${what} cover those, so the request count here is short of the real one.`;
}
