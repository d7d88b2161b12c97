/**
 * An incident in a line: its largest change first (by |Δ|), how many changes it holds and on how many
 * endpoints. The run page's banner, the inbox, the messages and the trend markers all order an incident's
 * regressions this way.
 */

/** The regressions the largest |Δ| first (a copy); ties by id where rows have one, so every reader orders them alike. */
export function byLargestChange<Row extends { deltaPct: number; id?: string }>(regressions: readonly Row[]): Row[] {
  return [...regressions].sort((a, b) => Math.abs(b.deltaPct) - Math.abs(a.deltaPct) || (a.id ?? "").localeCompare(b.id ?? ""));
}

/** The largest change, the count of changes, and of distinct endpoints (null, the aggregate, counts as one). */
export function summarizeStep<Row extends { deltaPct: number; endpointId: number | null }>(
  regressions: readonly Row[],
): { largest: Row | null; changes: number; endpoints: number } {
  return {
    largest: byLargestChange(regressions)[0] ?? null,
    changes: regressions.length,
    endpoints: new Set(regressions.map((regression) => regression.endpointId)).size,
  };
}
