import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { createSeededRandom, generateNormalSample } from "../../domain/stats/random";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { createMarker } from "../trends/annotations";
import { detectRegressionsAfterRun } from "./regression-detection";

/** Uploads a p95 series one run at a time, on main, running detection after each upload as the API does. */
async function replayHistory(
  database: Database,
  slug: string,
  p95s: readonly number[],
  beforeRun?: (index: number, startedAt: Date) => Promise<void>,
  vusOf?: (index: number) => number,
) {
  const runIds: string[] = [];
  for (const [index, p95] of p95s.entries()) {
    await beforeRun?.(index, new Date(Date.UTC(2026, 0, 1) + index * 3_600_000));
    const startedAt = new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString();
    const document = { schema: "benchtrack/v1", label: "nightly", startedAt, endpoints: [{ name: "GetListing", latency: { unit: "ms", p95 } }] };
    const outcome = await ingestTestRun(database.prisma, slug, document, {
      metadata: { branch: "main", ...(vusOf ? { config: { vus: vusOf(index) } } : {}) },
    });
    runIds.push(outcome.run.id);
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    await detectRegressionsAfterRun(database.prisma, project, outcome.run);
  }
  return runIds;
}

describe.each(testDatabaseTargets())("change-point regressions on $name", ({ target }) => {
  let database: Database;
  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });
  afterAll(async () => {
    await database.close();
  });

  it("a +30% p95 step at run 40 (noise CV 5%) opens exactly one regression, at run 40 ± 1", async () => {
    const random = createSeededRandom(40);
    const series = [...generateNormalSample(random, 40, 100, 0.05), ...generateNormalSample(random, 20, 130, 0.05)];
    const slug = uniqueSlug("step");
    const runIds = await replayHistory(database, slug, series);
    const regressions = await database.prisma.change.findMany({ where: { project: { slug } }, include: { endpoint: true } });
    const opened = regressions.filter((regression) => regression.kind === "regression");
    expect(opened).toHaveLength(1);
    const endpointRegression = opened[0]!;
    expect(endpointRegression.endpoint?.name).toBe("GetListing");
    expect(Math.abs(runIds.indexOf(endpointRegression.firstRunId) - 40)).toBeLessThanOrEqual(1);
    expect(endpointRegression.metric).toBe("p95");
    expect(endpointRegression.deltaPct).toBeGreaterThan(20);
    expect(endpointRegression.status).toBe("open");
  }, 120_000);

  it("a step at a known change (a marker of kind change) is not reported; a later step still is", async () => {
    const random = createSeededRandom(41);
    const series = [
      ...generateNormalSample(random, 40, 100, 0.05),
      ...generateNormalSample(random, 30, 130, 0.05),
      ...generateNormalSample(random, 20, 170, 0.05),
    ];
    const slug = uniqueSlug("known-change");
    const runIds = await replayHistory(database, slug, series, async (index, startedAt) => {
      if (index !== 40) return;
      // Posted by the deploy pipeline between runs 39 and 40, as CI would.
      const at = new Date(startedAt.getTime() - 60_000).toISOString();
      await createMarker(database.prisma, { kind: "admin" }, slug, { text: "pool size 20 → 10", kind: "change", at });
    });
    const opened = await database.prisma.change.findMany({ where: { project: { slug }, kind: "regression" } });
    expect(opened).toHaveLength(1);
    expect(Math.abs(runIds.indexOf(opened[0]!.firstRunId) - 70)).toBeLessThanOrEqual(1);
  }, 180_000);

  it("a capacity sweep on main (other VU counts, slower) opens nothing: each load profile is its own series", async () => {
    const random = createSeededRandom(42);
    const atTen = generateNormalSample(random, 54, 100, 0.05);
    const atFifty = generateNormalSample(random, 12, 200, 0.05);
    // 30 runs at 10 VUs, a sweep of 12 runs at 50 VUs (twice as slow), then 24 more at 10 VUs.
    const vusOf = (index: number) => (index >= 30 && index < 42 ? 50 : 10);
    const series = Array.from({ length: 66 }, (_, index) =>
      vusOf(index) === 50 ? atFifty[index - 30]! : atTen[index < 30 ? index : index - 12]!,
    );
    const slug = uniqueSlug("sweep");
    await replayHistory(database, slug, series, undefined, vusOf);
    expect(await database.prisma.change.count({ where: { project: { slug } } })).toBe(0);
  }, 180_000);

  it("a flat history of 500 runs with the same noise opens none", async () => {
    const series = generateNormalSample(createSeededRandom(500), 500, 100, 0.05);
    const slug = uniqueSlug("flat");
    await replayHistory(database, slug, series);
    expect(await database.prisma.change.count({ where: { project: { slug } } })).toBe(0);
  }, 600_000);
});
