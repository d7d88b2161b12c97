import type { ReadDb } from "../../db";
/**
 * What the trend charts mark, as stored: detected change points of the endpoint (the aggregate's for
 * "_all"), runs pinned as a baseline, notes, and the project's deploy and change markers (on a run or
 * at a time). Read before the history, whose read places them (server/domain/series/trend-markers.ts):
 * only markers inside the drawn history count.
 */
import { markedPlaces, regimeStartsOf, toMarkerSources } from "../../domain/series/trend-markers";
import { OVERLAY_METRIC } from "../../domain/series/trend-overlay";

/**
 * The markers, with the runs and times the history's read must include to place them, and where the
 * series' regimes begin for the overlay's noise band (its recorded p95 changes and the change markers).
 */
export async function findMarkerSources(db: ReadDb, projectId: string, endpointId: number | null) {
  const [changes, pins, annotations] = await Promise.all([
    db.change.findMany({
      where: { projectId, endpointId, status: { not: "dismissed" } },
      select: { firstRunId: true, metric: true, kind: true, deltaPct: true, incident: { select: { number: true, state: true } } },
    }),
    db.baselinePin.findMany({ where: { projectId }, select: { runIds: true, forLabel: true } }),
    db.annotation.findMany({ where: { projectId }, select: { runId: true, at: true, kind: true, text: true } }),
  ]);
  const records = { changes, pins, annotations };
  const markers = toMarkerSources(records);
  return { markers, ...markedPlaces(markers), bandRegimeStarts: regimeStartsOf(records, OVERLAY_METRIC) };
}
