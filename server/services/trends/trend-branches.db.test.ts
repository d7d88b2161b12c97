import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { getEndpointTrends } from "./endpoint-trends";

/**
 * The trend page's branches (server/domain/series/trend-branches.ts): the default branch alone by default,
 * with its band and the gate's threshold; several branches one line each; the runs naming no branch;
 * every run on request, or when no run names a branch.
 */
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 9);

async function seedRun(database: Database, slug: string, run: { hour: number; branch: string | null; p95: number }) {
  const document = {
    schema: "benchtrack/v1",
    tool: "custom",
    label: "nightly",
    startedAt: new Date(T0 + run.hour * HOUR).toISOString(),
    ...(run.branch !== null && { environment: { git: { commit: `c0ffee${run.hour}abcdef`, branch: run.branch } } }),
    endpoints: [{ name: "GetListing", requests: 500, failures: 0, latency: { unit: "ms", p50: run.p95 / 2, p95: run.p95 } }],
  };
  return ingestTestRun(database.prisma, slug, document, { format: "benchtrack" });
}

// main: 6 runs (mean p95 101 ms); feature/x: 3 runs at 130 ms between them; 2 runs uploaded without a branch.
const MAIN = [100, 102, 99, 101, 100, 104];
const FEATURE = [130, 131, 129];
const NONE = [80, 81];

describe.each(testDatabaseTargets())("trend branches on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("trend-branches");
  const bare = uniqueSlug("trend-no-branches");

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (const [hour, p95] of MAIN.entries()) await seedRun(database, slug, { hour, branch: "main", p95 });
    for (const [i, p95] of FEATURE.entries()) await seedRun(database, slug, { hour: 2.5 + i, branch: "feature/x", p95 });
    for (const [i, p95] of NONE.entries()) await seedRun(database, slug, { hour: 6 + i, branch: null, p95 });
    for (const [hour, p95] of [10, 11, 12].entries()) await seedRun(database, bare, { hour, branch: null, p95 });
  });

  afterAll(async () => {
    await database?.close();
  });

  const trends = (projectSlug: string, extra: { branches?: string[]; runLevelMaxRuns?: number } = {}) =>
    getEndpointTrends(database.prisma, { projectSlug, endpoint: "GetListing", label: null, range: "all", ...extra });

  it("draws the default branch alone by default, with its band and the gate's threshold from stored runs", async () => {
    const data = await trends(slug);
    expect(data.branches).toEqual({ kind: "some", branches: ["main"], why: "default" });
    expect(data.totalRuns).toBe(6);
    expect(data.points.map((point) => point.p95Ms)).toEqual(MAIN);
    // The band: learnt from main's runs once 5 are known (runs 5 and 6).
    expect(data.gate!.band.map((entry) => entry.order)).toEqual([5, 6]);
    // The threshold: main's 6 runs are the baseline of a next run; mean p95 101 ms + 5 % = 106.05 ms.
    expect(data.gate!.threshold).toMatchObject({ metric: "p95", isAuto: true, baselineRuns: 6, minEffectPct: 5 });
    const threshold = data.gate!.threshold as { baselineMean: number; value: number };
    expect(threshold.baselineMean).toBeCloseTo(101, 10);
    expect(threshold.value).toBeCloseTo(106.05, 10);
  });

  it("follows the project's minimum effect and default branch", async () => {
    await database.prisma.project.update({ where: { slug }, data: { minEffectPct: 10, defaultBranch: "feature/x" } });
    try {
      const data = await trends(slug);
      expect(data.branches).toEqual({ kind: "some", branches: ["feature/x"], why: "default" });
      expect(data.points.map((point) => point.p95Ms)).toEqual(FEATURE);
      const threshold = data.gate!.threshold as { baselineMean: number; value: number };
      expect(threshold.baselineMean).toBeCloseTo(130, 10);
      expect(threshold.value).toBeCloseTo(143, 10);
    } finally {
      await database.prisma.project.update({ where: { slug }, data: { minEffectPct: 5, defaultBranch: "main" } });
    }
  });

  it("reads several branches together, each run keeping its branch; no band or threshold off the default branch alone", async () => {
    const both = await trends(slug, { branches: ["main", "feature/x"] });
    expect(both.branches).toEqual({ kind: "some", branches: ["main", "feature/x"], why: "asked" });
    expect(both.totalRuns).toBe(9);
    expect(both.points.filter((point) => point.branch === "feature/x").map((point) => point.p95Ms)).toEqual(FEATURE);
    expect(both.points.filter((point) => point.branch === "main").map((point) => point.p95Ms)).toEqual(MAIN);
    expect(both.gate).toBeNull();

    const feature = await trends(slug, { branches: ["feature/x"] });
    expect(feature.totalRuns).toBe(3);
    expect(feature.gate).toBeNull();
  });

  it("reads the runs naming no branch as 'none', alone or beside a branch, and every run when asked", async () => {
    const none = await trends(slug, { branches: ["none"] });
    expect(none.branches).toEqual({ kind: "some", branches: [null], why: "asked" });
    expect(none.points.map((point) => [point.branch, point.p95Ms])).toEqual([
      [null, 80],
      [null, 81],
    ]);
    const featureAndNone = await trends(slug, { branches: ["feature/x", "none"] });
    expect(featureAndNone.totalRuns).toBe(5);
    const every = await trends(slug, { branches: ["all"] });
    expect(every.totalRuns).toBe(11);
  });

  it("draws every run of a project none of whose runs names a branch, and says why", async () => {
    const data = await trends(bare);
    expect(data.branches).toEqual({ kind: "every", why: "no-branch-data" });
    expect(data.totalRuns).toBe(3);
    expect(data.gate).toBeNull();
  });

  it("zoomed out, reads one branch's rollups: the first of several, and says so", async () => {
    const zoomed = await trends(slug, { branches: ["feature/x", "main"], runLevelMaxRuns: 2 });
    expect(zoomed.buckets).toMatchObject({ branch: "feature/x", isFirstBranchOnly: true, totalRuns: 3 });
    const main = await trends(slug, { runLevelMaxRuns: 2 });
    expect(main.buckets).toMatchObject({ branch: "main", isFirstBranchOnly: false, totalRuns: 6 });
  });
});
