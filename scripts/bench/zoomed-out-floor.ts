import { AGGREGATE_URL_NAME } from "../../server/domain/run";
import { median } from "../../server/domain/stats/descriptive";
import type { PrismaClient } from "../../server/generated/prisma/client";
import { resolveEndpointPage, resolveTrendScope } from "../../server/services/trends";
import { getEndpointTrends } from "../../server/services/trends";
import { readTrendCandidates } from "../../server/services/trends";
import { readRollupBuckets } from "../../server/services/trends";
import { BENCH_PROJECT_SLUG } from "./page-history";
import type { SeededHistory } from "./page-history";

/**
 * The zoomed-out trend's floors (docs/rollups.md), measured in the same run as the pages: for the
 * endpoint's and the aggregate's default trend (range "all"), the median time of the weekly rollup read
 * alone (readRollupBuckets, the statement the zoomed-out page starts from), of the old full-history read
 * alone (readTrendCandidates: every run of the range numbered, what the run-level page reads), and of
 * the whole service call in process. Each through the seeding process's own client.
 */
const SAMPLES = 7;

export interface ZoomedOutFloor {
  page: string;
  runs: number;
  view: string;
  rollupReadMs: number;
  fullHistoryReadMs: number;
  serviceMs: number;
}

async function medianMs(samples: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return Math.round((median(times) ?? Number.NaN) * 10) / 10;
}

export async function measureZoomedOutFloors(db: PrismaClient, history: SeededHistory): Promise<ZoomedOutFloor[]> {
  const floors: ZoomedOutFloor[] = [];
  for (const endpoint of [history.sample.endpoint, AGGREGATE_URL_NAME]) {
    // Every branch: the page's heaviest read (its default, the default branch alone, reads a subset).
    const query = { projectSlug: BENCH_PROJECT_SLUG, endpoint, branches: ["all"], label: null, range: "all" as const };
    const page = await resolveEndpointPage(db, query);
    const scope = await resolveTrendScope(db, page, { ...query, branches: { kind: "every", why: "asked" }, hasOverlay: false });
    const trends = await getEndpointTrends(db, query);
    floors.push({
      page: endpoint === AGGREGATE_URL_NAME ? "aggregate trends" : "endpoint trends",
      runs: trends.totalRuns,
      view: trends.buckets ? `${trends.buckets.grain} buckets (${trends.buckets.points.length})` : `runs (${trends.points.length})`,
      rollupReadMs: await medianMs(SAMPLES, () => readRollupBuckets(db, scope, "week")),
      fullHistoryReadMs: await medianMs(SAMPLES, () => readTrendCandidates(db, scope, 300, { runIds: [], times: [] })),
      serviceMs: await medianMs(SAMPLES, () => getEndpointTrends(db, query)),
    });
  }
  return floors;
}

export function describeZoomedOutFloor(floor: ZoomedOutFloor): string {
  return (
    `${floor.page} (${floor.runs} runs, drawn as ${floor.view}): service ${floor.serviceMs} ms; ` +
    `floors: weekly rollup read alone ${floor.rollupReadMs} ms, old full-history read alone ${floor.fullHistoryReadMs} ms`
  );
}
