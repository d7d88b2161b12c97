/**
 * The trend charts' markers: what each says (a change point's incident, metric and change, a pinned baseline,
 * a note or a deploy/change marker) and where it stands on the history. Pure: the service
 * (server/services/trends/marked-runs.ts) reads the stored changes, pins and annotations, and the history's
 * read tells where their runs stand.
 */
import { formatDeltaPct } from "../format";
import { INCIDENT_STATE_LABELS } from "../incidents/state";
import type { IncidentState } from "../incidents/state";
import type { RegimeStart } from "../stats/noise-band";

export type TrendMarkerKind = "regression" | "improvement" | "pinned" | "annotation" | "deploy" | "change";

export interface TrendMarker {
  /** The run it marks; null for a marker at a time between runs (placed at the first run after it). */
  runId: string | null;
  time: number;
  order: number;
  kind: TrendMarkerKind;
  text: string;
  /** A regression's incident: the chart links its marker to the incident's page. */
  incidentNumber?: number;
}

/** A marker before it is placed: on a run, or at a time. */
export type MarkerSource = Pick<TrendMarker, "kind" | "text" | "incidentNumber"> &
  ({ runId: string; at?: undefined } | { runId: null; at: Date });

/** The stored things a trend marks, as the service reads them. */
export interface MarkerRecords {
  /** Detected change points of the endpoint (or the aggregate), dismissed ones left out; a regression with its incident. */
  changes: readonly {
    firstRunId: string;
    metric: string;
    kind: "regression" | "improvement";
    deltaPct: number;
    incident?: { number: number; state: IncidentState } | null;
  }[];
  /** Baselines pinned in the project, each of one or more runs. */
  pins: readonly { runIds: readonly string[]; forLabel: string | null }[];
  /** The project's notes and deploy/change markers, on a run or at a time. */
  annotations: readonly { runId: string | null; at: Date; kind: "note" | "deploy" | "change"; text: string }[];
}

/**
 * The change points' markers: one per incident at its run, "Incident #3 (Open): p95 +31.0%, p99 +40.2%"
 * (the largest change first), linked to the incident; a change without an incident (an improvement)
 * says its metric and change, "p99 −12.0%".
 */
function changeMarkers(changes: MarkerRecords["changes"]): MarkerSource[] {
  type Change = MarkerRecords["changes"][number];
  type IncidentSlot = { runId: string; incident: { number: number; state: IncidentState }; changes: Change[] };
  const describe = (change: Change) => `${change.metric} ${formatDeltaPct(change.deltaPct)}`;
  // In the order of each incident's first change (and of the other changes), one slot per incident and run.
  const slots: (MarkerSource | IncidentSlot)[] = [];
  const byKey = new Map<string, IncidentSlot>();
  for (const change of changes) {
    if (!change.incident) {
      slots.push({ runId: change.firstRunId, kind: change.kind, text: describe(change) });
      continue;
    }
    const key = `${change.firstRunId} ${change.incident.number}`;
    let slot = byKey.get(key);
    if (!slot) {
      slot = { runId: change.firstRunId, incident: change.incident, changes: [] };
      byKey.set(key, slot);
      slots.push(slot);
    }
    slot.changes.push(change);
  }
  return slots.map((slot): MarkerSource => {
    if (!("incident" in slot)) return slot;
    const moved = [...slot.changes].sort((a, b) => Math.abs(b.deltaPct) - Math.abs(a.deltaPct)).map(describe);
    return {
      runId: slot.runId,
      kind: "regression",
      text: `Incident #${slot.incident.number} (${INCIDENT_STATE_LABELS[slot.incident.state]}): ${moved.join(", ")}`,
      incidentNumber: slot.incident.number,
    };
  });
}

/** Each marker with its text: "Incident #3 (Open): p95 +76.1%", "baseline (nightly)", a note's own words. */
export function toMarkerSources(records: MarkerRecords): MarkerSource[] {
  return [
    ...changeMarkers(records.changes),
    ...records.pins.flatMap((pin) =>
      pin.runIds.map((runId): MarkerSource => ({
        runId,
        kind: "pinned",
        text: `baseline${pin.forLabel ? ` (${pin.forLabel})` : ""}`,
      })),
    ),
    ...records.annotations.map((annotation): MarkerSource => {
      const kind = annotation.kind === "note" ? "annotation" : annotation.kind;
      return annotation.runId === null
        ? { runId: null, at: annotation.at, kind, text: annotation.text }
        : { runId: annotation.runId, kind, text: annotation.text };
    }),
  ];
}

/**
 * Where the series' regimes begin for a noise band learnt on `metric`: its recorded changes of that metric
 * (dismissed ones are not among the records) at their first runs, and every change marker at its time.
 * Notes and deploy markers start nothing.
 */
export function regimeStartsOf(records: MarkerRecords, metric: string): RegimeStart[] {
  return [
    ...records.changes.filter((change) => change.metric === metric).map((change) => ({ runId: change.firstRunId })),
    ...records.annotations.filter((annotation) => annotation.kind === "change").map((annotation) => ({ at: annotation.at.getTime() })),
  ];
}

/**
 * Where the history's read must look to place the markers: the marked runs' ids and the marked times
 * (ISO 8601), each distinct and sorted (they are part of a cache key).
 */
export function markedPlaces(markers: readonly MarkerSource[]): { runIds: string[]; times: string[] } {
  const onRuns = markers.flatMap((marker) => (marker.runId === null ? [] : [marker.runId]));
  const atTimes = markers.flatMap((marker) => (marker.runId === null ? [marker.at.toISOString()] : []));
  return { runIds: [...new Set(onRuns)].sort(), times: [...new Set(atTimes)].sort() };
}

/**
 * Places each marker at its run, or a marker at a time at the first run at or after it; markers of runs
 * not in `rows` (the history read, oldest first) are left out. Sorted by run order, then time.
 */
export function placeMarkers(
  markers: readonly MarkerSource[],
  rows: readonly { runId: string; startedAt: Date; order: number }[],
): TrendMarker[] {
  const rowOf = new Map(rows.map((row) => [row.runId, row]));
  return markers
    .flatMap((marker): TrendMarker[] => {
      if (marker.runId === null) {
        const after = rows.find((row) => row.startedAt.getTime() >= marker.at.getTime());
        if (!after) return [];
        return [{ runId: null, kind: marker.kind, text: marker.text, time: marker.at.getTime(), order: after.order }];
      }
      const row = rowOf.get(marker.runId);
      return row
        ? [
            {
              runId: marker.runId,
              kind: marker.kind,
              text: marker.text,
              time: row.startedAt.getTime(),
              order: row.order,
              ...(marker.incidentNumber !== undefined && { incidentNumber: marker.incidentNumber }),
            },
          ]
        : [];
    })
    .sort((a, b) => a.order - b.order || a.time - b.time);
}
