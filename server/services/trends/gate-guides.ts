import type { ReadDb } from "../../db";
/**
 * What the default branch's chart draws besides its runs (docs/trends.md, "The default branch's chart"):
 * the gate's threshold, from stored data only. The baseline is the one the gate would choose for a new
 * run of the series right after its latest run (server/services/gate/baselines.ts: the same tool, label,
 * testbed and load profile on the default branch, since the last accepted change, or the pinned runs);
 * the threshold is its mean of the gate metric times (1 + minimum effect), server/domain/series/gate-threshold.ts.
 */
import { gateThresholdOf } from "../../domain/series/gate-threshold";
import type { GateThreshold } from "../../domain/series/gate-threshold";
import { chooseBaseline } from "../gate";
import { RUN_IDENTITY_SELECT } from "../runs";

export type TrendGateThreshold = GateThreshold & {
  /** How the gate chose the baseline, in its own words ("the last 20 runs on main…"). */
  how: string | null;
};

/** The gate's threshold over the series of `latestRunId` (a run of the default branch), for one endpoint or the aggregate. */
export async function readGateThreshold(
  db: ReadDb,
  project: { id: string; defaultBranch: string; minEffectPct: number; gateMetric: string },
  endpointId: number | null,
  isBenchmark: boolean,
  latestRunId: string,
): Promise<TrendGateThreshold> {
  const latest = await db.run.findUnique({ where: { id: latestRunId }, select: RUN_IDENTITY_SELECT });
  if (!latest) return { metric: null, why: "the latest run is gone", how: null };
  // The next run of this series: on the default branch, no merge-base, no commit of its own (so no
  // earlier rounds), a moment after the latest run (which its window then includes).
  const next = {
    ...latest,
    id: "",
    gitCommit: null,
    gitBaseCommit: null,
    gitBaseBranch: null,
    gitBaseTime: null,
    abJob: null,
    abSide: null,
    abPair: null,
    startedAt: new Date(latest.startedAt.getTime() + 1),
  };
  const baseline = await chooseBaseline(db, project, next);
  const rows =
    baseline.runIds.length === 0
      ? []
      : await db.result.findMany({
          where: { projectId: project.id, runId: { in: baseline.runIds }, endpointId },
          select: { p50Ms: true, p90Ms: true, p95Ms: true, p99Ms: true, meanMs: true, maxMs: true },
        });
  const values = rows.map((row) => ({ p50: row.p50Ms, p90: row.p90Ms, p95: row.p95Ms, p99: row.p99Ms, mean: row.meanMs, max: row.maxMs }));
  return { ...gateThresholdOf(project.gateMetric, isBenchmark, values, project.minEffectPct), how: baseline.how };
}
