import type { ReadDb } from "../../db";
import type { SeriesChange } from "../../domain/gate/baseline-window";
import type { IncidentState } from "../../domain/incidents/state";
import { formatDeltaPct } from "../../domain/format";
import { metricShortName, resultKindOf } from "../../domain/result-kind";
import { endpointDisplayName } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import { notAbBaseSql, seriesRunsSql } from "../runs";
import type { SeriesOfRuns } from "../runs";

/**
 * What a baseline's window is chosen from (baselines.ts), read in one statement: the series' runs before
 * the reference time (newest first, the head's rounds and A/B jobs' base runs left out), its latest change
 * markers, and its recorded changes (regressions and improvements) with their endpoint, first run and
 * incident. Read by Prisma these were six statements (the change's three relations each its own); the
 * upload waits for this one before its transaction. The runs follow the index (project_id, tool, label,
 * git_branch, testbed, started_at DESC); changes are found from the series' runs by regressions (first_run_id).
 */
export interface SeriesWindowQuery extends SeriesOfRuns {
  /** The head's rounds: never in its own baseline. */
  excludeRunIds: readonly string[];
  /** The reference time, and whether a run at it belongs to the window (the merge-base's runs) or not. */
  until: Date;
  inclusive: boolean;
  /** Runs read at most (load profile, failed runs and the cap leave some out). */
  scan: number;
  /** Change markers and recorded changes read at most. */
  markers: number;
  changes: number;
}

export interface SeriesWindowRun {
  id: string;
  startedAt: Date;
  uploadedAt: Date;
  regressed: boolean | null;
  config: unknown;
}

interface RunJson {
  id: string;
  started_at: string;
  uploaded_at: string;
  regressed: boolean | null;
  config: unknown;
}
interface MarkerJson {
  at: string;
  text: string;
  created_at: string;
}
interface ChangeJson {
  kind: "regression" | "improvement";
  status: "open" | "acknowledged" | "dismissed";
  status_changed_at: string | null;
  metric: string;
  delta_pct: number;
  endpoint_name: string | null;
  endpoint_protocol: string | null;
  first_run_id: string;
  first_started_at: string;
  incident_number: number | null;
  incident_state: IncidentState | null;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export async function readSeriesWindow(db: ReadDb, query: SeriesWindowQuery): Promise<{ runs: SeriesWindowRun[]; changes: SeriesChange[] }> {
  // Runs before the reference time (at it too for a merge-base); changes and markers at or before it.
  const series = (table: "r" | "f", before: "<" | "<=") =>
    Prisma.sql`${seriesRunsSql(table, query)} AND ${Prisma.raw(table)}.started_at ${Prisma.raw(before)} ${query.until}`;
  const [row] = await db.$queryRaw<{ runs: RunJson[]; markers: MarkerJson[]; changes: ChangeJson[] }[]>`
    SELECT
      (SELECT coalesce(json_agg(w ORDER BY w.started_at DESC, w.id DESC), '[]'::json) FROM (
        SELECT r.id, r.started_at, r.uploaded_at, r.regressed, r.config FROM runs r
        WHERE ${series("r", query.inclusive ? "<=" : "<")} AND r.id <> ALL(${[...query.excludeRunIds]}::text[])
          AND ${notAbBaseSql("r")}
        ORDER BY r.started_at DESC, r.id DESC LIMIT ${query.scan}
      ) w) AS runs,
      (SELECT coalesce(json_agg(m ORDER BY m.at DESC), '[]'::json) FROM (
        SELECT a.at, a.text, a.created_at FROM annotations a
        WHERE a.project_id = ${query.projectId} AND a.kind = 'change' AND a.at <= ${query.until}
        ORDER BY a.at DESC LIMIT ${query.markers}
      ) m) AS markers,
      (SELECT coalesce(json_agg(c ORDER BY c.first_started_at DESC, c.id DESC), '[]'::json) FROM (
        SELECT g.id, g.kind::text AS kind, g.status::text AS status, g.status_changed_at, g.metric, g.delta_pct,
               e.name AS endpoint_name, e.protocol AS endpoint_protocol, f.id AS first_run_id, f.started_at AS first_started_at,
               i.number AS incident_number, i.state::text AS incident_state
        FROM runs f
        JOIN regressions g ON g.first_run_id = f.id
        LEFT JOIN endpoints e ON e.id = g.endpoint_id
        LEFT JOIN incidents i ON i.id = g.incident_id
        WHERE ${series("f", "<=")} AND g.project_id = ${query.projectId}
        ORDER BY f.started_at DESC, g.id DESC LIMIT ${query.changes}
      ) c) AS changes`;
  if (!row) return { runs: [], changes: [] };
  const runs = row.runs.map((run): SeriesWindowRun => ({
    id: run.id,
    startedAt: new Date(run.started_at),
    uploadedAt: new Date(run.uploaded_at),
    regressed: run.regressed,
    config: run.config,
  }));
  const markers = row.markers.map((marker): SeriesChange => {
    const at = new Date(marker.at);
    return { kind: "marker", status: null, at, firstRunId: null, decidedAt: new Date(marker.created_at), summary: `the change marker of ${day(at)} ("${marker.text}")` };
  });
  const changes = row.changes.map((change): SeriesChange => {
    const at = new Date(change.first_started_at);
    const incident = change.incident_number === null ? null : { number: change.incident_number, state: change.incident_state! };
    return {
      kind: change.kind,
      status: change.status,
      at,
      firstRunId: change.first_run_id,
      decidedAt: change.status === "open" || change.status_changed_at === null ? null : new Date(change.status_changed_at),
      summary: `${endpointDisplayName(change.endpoint_name)} ${metricShortName(change.metric, resultKindOf({ protocol: change.endpoint_protocol }))} ${formatDeltaPct(change.delta_pct)} from the run of ${day(at)} (${change.first_run_id})${incident ? `, incident #${incident.number}` : ""}`,
      incident,
    };
  });
  return { runs, changes: [...markers, ...changes] };
}
