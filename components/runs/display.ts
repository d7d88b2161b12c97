/**
 * Small display helpers of the run report, on top of server/domain/format.ts (which stays the one
 * place numbers are formatted).
 */

/**
 * A formatted value without the unit its column header already states: "0.74 ms" in an "Avg (ms)"
 * column shows "0.74"; a value the formatter put in another unit keeps it ("1.23 s"), as does "—".
 */
export function withoutUnit(formatted: string, unit: string): string {
  const suffix = ` ${unit}`;
  return formatted.endsWith(suffix) ? formatted.slice(0, -suffix.length) : formatted;
}

/** An ISO timestamp as "2026-11-22 09:37:03 UTC" (fixed, so server and browser render the same text). */
export function formatUtcTimestamp(iso: string | null): string | null {
  if (iso === null) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
