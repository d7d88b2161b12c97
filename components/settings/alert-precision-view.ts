import type { RouterOutputs } from "@/server/api/root";
import { formatNumber, formatPct } from "@/server/domain/format";

/**
 * The alert precision panel's words and bars, shaped from incident.precision (server/domain/incidents/
 * precision.ts) by pure functions: the panel and its chart only draw them.
 */
export type AlertPrecisionData = RouterOutputs["incident"]["precision"];
type Counts = Pick<AlertPrecisionData, "closed" | "valid" | "invalid" | "precision" | "interval">;

/** "52.9–97.8%": a 95% interval of a share, one decimal. */
export function formatInterval(interval: { low: number; high: number }): string {
  return `${formatNumber(interval.low * 100, 1)}–${formatNumber(interval.high * 100, 1)}%`;
}

/** "7 valid / 1 invalid of 8 closed (87.5%, 95% CI 52.9–97.8%)"; with none closed, "none closed". */
export function describeCounts(counts: Counts): string {
  if (counts.closed === 0 || counts.precision === null || counts.interval === null) return "none closed";
  return `${counts.valid} valid / ${counts.invalid} invalid of ${counts.closed} closed (${formatPct(counts.precision, 1)}, 95% CI ${formatInterval(counts.interval)})`;
}

/** The panel's first line: the precision, or why there is none yet (the service's reason). */
export function precisionHeadline(data: AlertPrecisionData): string {
  if (data.precision === null) return `Alert precision: not measured yet. ${data.reason ?? "No incident closed yet."}`;
  return `Alert precision: ${describeCounts(data)}`;
}

/** One bar of the chart: a month's closed incidents, valid and invalid stacked. */
export interface PrecisionBar {
  month: string;
  valid: number;
  invalid: number;
  /** "87.5% (7 of 8)" for the tooltip. */
  text: string;
}

export function toPrecisionBars(byMonth: AlertPrecisionData["byMonth"]): PrecisionBar[] {
  return byMonth.map((month) => ({
    month: month.month,
    valid: month.valid,
    invalid: month.invalid,
    text: month.precision === null ? "none closed" : `${formatPct(month.precision, 1)} (${month.valid} of ${month.closed})`,
  }));
}
