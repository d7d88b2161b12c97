/**
 * One step, one incident: the regressions a change point opened at the same first run (every endpoint
 * and percentile that stepped up at once) are one thing that happened, and the inbox shows them as one,
 * the largest change first. Incidents are ordered newest first, as the inbox's rows are.
 */
export interface IncidentRow {
  firstRunId: string;
  deltaPct: number | null;
  endpoint: { name: string } | null;
}

export interface Incident<Row extends IncidentRow> {
  firstRunId: string;
  /** Its regressions, the largest |Δ| first. */
  rows: Row[];
  /** Distinct endpoints (null: the aggregate). */
  endpoints: (string | null)[];
}

export function groupIntoIncidents<Row extends IncidentRow>(rows: readonly Row[]): Incident<Row>[] {
  const byRun = new Map<string, Row[]>();
  for (const row of rows) byRun.set(row.firstRunId, [...(byRun.get(row.firstRunId) ?? []), row]);
  return [...byRun].map(([firstRunId, members]) => ({
    firstRunId,
    rows: [...members].sort((a, b) => Math.abs(b.deltaPct ?? 0) - Math.abs(a.deltaPct ?? 0)),
    endpoints: [...new Set(members.map((row) => row.endpoint?.name ?? null))],
  }));
}
