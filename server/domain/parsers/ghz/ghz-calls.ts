/**
 * What ghz's JSON report (`ghz.ts`) and its CSV (`ghz-csv.ts`) share about calls: the percentiles computed
 * wherever ghz's raw latencies are at hand, and the note on calls ghz cut off itself.
 */
import { SAMPLE_PERCENTILES } from "../../stats/percentile";

/** Calls that end with these statuses were cut off by ghz itself, typically when `-z` ran out. */
const SHUTDOWN_STATUSES = ["Canceled", "Unavailable"] as const;
/** ghz's own 10/25/50/75/90/95/99 plus 99.9: what is computed wherever ghz's raw latencies are at hand. */
export const GHZ_SAMPLE_PERCENTILES = [...new Set([10, 25, 75, ...SAMPLE_PERCENTILES])].sort((a, b) => a - b);

/**
 * The note for calls ghz cut off itself (Canceled, Unavailable), so they are not read as server errors.
 * `endReason` is the JSON report's (null when the output does not say, as with `-O csv`); `method` null
 * when the method is unknown (a CSV sent without its file name).
 */
export function shutdownNoteOf(
  method: string | null,
  statuses: Readonly<Record<string, number>>,
  endReason: string | null,
): string[] {
  const parts = SHUTDOWN_STATUSES.filter((status) => (statuses[status] ?? 0) > 0).map(
    (status) => `${statuses[status]} ${status}`,
  );
  if (parts.length === 0) return [];
  const why =
    endReason === "timeout"
      ? "calls still in flight when the run's duration ran out (ghz closes the connection)"
      : endReason === null
        ? "calls ghz cut off itself, typically still in flight when the run's duration (-z) ran out"
        : "calls cut off by the client, not answered by the server";
  return [
    `${method === null ? "" : `${method}: `}${parts.join(" and ")} — ${why}; counted as failures, not server errors.`,
  ];
}
