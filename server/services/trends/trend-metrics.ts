import type { ReadDb } from "../../db";
/**
 * The trend page's custom metric series (CPU %, memory MB, messages/s): one per metric key of the
 * endpoint (or, on the aggregate page, of the run), numbered by the run's position in the endpoint's
 * history and, when long, preselected like it by the database (trend-history-sql.ts), each thinned by
 * the domain (toMetricPoints). Three statements whatever the number of keys: the keys with their
 * units, the series, and the drawn points' runs.
 */
import { describeRunOfPoint } from "../../domain/series/run-point";
import { toMetricPoints } from "../../domain/series/trend-series";
import type { MetricTrendPoint } from "../../domain/series/trend-series";
import type { Better } from "../../domain/run";
import type { HistoryScope } from "./endpoint-page";
import { readMetricHistory, readMetricUnits, readNamedRuns } from "./trend-history-sql";

export interface MetricTrend {
  key: string;
  unit: string | null;
  /** null: the tool did not say which way is better. */
  better: Better | null;
  /** Runs with this metric under the filters (M), and the points drawn (≤ maxPoints). */
  total: number;
  isDownsampled: boolean;
  points: MetricTrendPoint[];
}

const NO_RUN = { label: null, round: null, branch: null, commit: null };

/** The history's custom metrics, by key, each with the unit and direction its newest run states. */
export async function findMetricTrends(
  db: ReadDb,
  scope: HistoryScope,
  maxPoints: number,
): Promise<MetricTrend[]> {
  const units = await readMetricUnits(db, scope);
  if (units.length === 0) return [];
  const rows = await readMetricHistory(db, scope, maxPoints);
  const rowsOf = new Map<string, typeof rows>();
  for (const row of rows) {
    const keyRows = rowsOf.get(row.key);
    if (keyRows) keyRows.push(row);
    else rowsOf.set(row.key, [row]);
  }
  const series = units.flatMap((stated) => {
    const keyRows = rowsOf.get(stated.key);
    if (!keyRows) return [];
    return [{ ...stated, ...toMetricPoints(keyRows, maxPoints, keyRows[0]!.total) }];
  });

  const runIds = [...new Set(series.flatMap((metric) => metric.points.map((point) => point.runId)))];
  const runs = await readNamedRuns(db, runIds);
  return series.map((metric) => ({
    ...metric,
    points: metric.points.map((point) => ({ ...point, ...describeRunOfPoint(runs.get(point.runId) ?? NO_RUN) })),
  }));
}
