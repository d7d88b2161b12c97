/**
 * Locust's failures and exceptions, as its CSV files (`_failures.csv`, `_exceptions.csv`) and its HTML
 * report (`failures_statistics`, `exceptions_statistics`) both give them: failures by message, per endpoint
 * and in the aggregate, and the exceptions raised in the locustfile as a note.
 */
import type { EndpointResult } from "../../run";

/** One failure row: an endpoint (method and name, as the endpoints are named), a message and its count. */
export interface LocustFailure {
  method: string | null;
  name: string;
  error: string;
  occurrences: number;
}

/** An endpoint's key as Locust's rows name it: method (Type) and Name. */
export function locustKey(method: string | null, name: string): string {
  return `${method ?? ""}\u0000${name}`;
}

/** Endpoints by locustKey: one lookup per history or failure row, not a scan (20,000 × 20,000 took seconds). */
export function endpointsByKey(endpoints: readonly EndpointResult[]): Map<string, EndpointResult> {
  return new Map(endpoints.map((endpoint) => [locustKey(endpoint.method, endpoint.name), endpoint]));
}

/**
 * Each failure's count under its message, on its endpoint and on the aggregate. Locust lists every
 * failing endpoint, so an endpoint absent from the failures had none (errors `{}`, not unknown).
 */
export function attachLocustFailures(
  failures: readonly LocustFailure[],
  endpoints: readonly EndpointResult[],
  aggregate: EndpointResult | null,
): void {
  for (const endpoint of endpoints) endpoint.errors = {};
  if (aggregate) aggregate.errors = {};
  const byKey = endpointsByKey(endpoints);
  for (const failure of failures) {
    const endpoint = byKey.get(locustKey(failure.method, failure.name));
    for (const target of [endpoint, aggregate]) {
      if (!target?.errors) continue;
      target.errors[failure.error] = (target.errors[failure.error] ?? 0) + failure.occurrences;
    }
  }
}

/**
 * Exceptions raised in the locustfile (`_exceptions.csv` rows, the HTML report's `exceptions_statistics`)
 * as one note listing the first five, or no note when there were none.
 */
export function locustExceptionNotes(exceptions: readonly { count: number; message: string }[]): string[] {
  if (exceptions.length === 0) return [];
  const total = exceptions.reduce((sum, e) => sum + e.count, 0);
  const listed = exceptions.slice(0, 5).map((e) => `${e.message.slice(0, 200)} (×${e.count})`);
  const more = exceptions.length > 5 ? `, and ${exceptions.length - 5} more` : "";
  return [`Locust recorded ${total} exception(s) in the locustfile: ${listed.join("; ")}${more}.`];
}
