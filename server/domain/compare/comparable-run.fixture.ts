/**
 * Runs for the comparison's tests: a document in the Benchtrack format, as a user would upload it,
 * parsed as ingest does, with the setup a comparison reads (label "nightly", one fixed start, 30 s,
 * unless `setup` says otherwise).
 */
import { parseUpload } from "../parsers";
import { parseBenchtrack } from "../parsers/benchtrack";
import type { ParsedRun } from "../run";
import type { ComparableRun } from "./compare-runs";

/** A parsed run as a comparison reads it, with that setup. */
export function comparableOf(id: string, parsed: ParsedRun, setup: Partial<ComparableRun> = {}): ComparableRun {
  return {
    id,
    label: "nightly",
    round: null,
    startedAt: "2026-11-22T10:00:00Z",
    format: parsed.format,
    tool: parsed.tool,
    durationSeconds: parsed.durationSeconds,
    hostName: null,
    config: {},
    aggregate: parsed.aggregate,
    endpoints: parsed.endpoints,
    metrics: parsed.metrics,
    ...setup,
  };
}

export function comparableRun(
  id: string,
  document: Record<string, unknown>,
  setup: Partial<ComparableRun> = {},
): ComparableRun {
  const parsed = parseBenchtrack({ schema: "benchtrack/v1", ...document });
  return comparableOf(id, parsed, {
    format: "benchtrack",
    tool: typeof document.tool === "string" ? document.tool : "custom",
    durationSeconds: 30,
    ...setup,
  });
}

/** A tool's file as a user uploads it (its format detected), as a comparison reads it. */
export function comparableUpload(id: string, text: string, setup: Partial<ComparableRun> = {}): ComparableRun {
  return comparableOf(id, parseUpload({ files: [{ name: null, text }] }).run, { durationSeconds: null, ...setup });
}

/** Endpoints by name with their p95 (p50 half of it), `requests` each. */
export function p95Endpoints(p95s: Record<string, number>, requests = 5000) {
  return Object.entries(p95s).map(([name, p95]) => ({
    name,
    requests,
    failures: 0,
    latency: { unit: "ms", p50: p95 / 2, p95 },
  }));
}
