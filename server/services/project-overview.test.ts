import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../api/root";
import type { Database } from "../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { receivedUpload } from "../testing/uploads";
import { ingestRun } from "./ingest-run";
import { SERIES_LENGTH, getProjectOverview, medianOf, p95TrendOf, toP95Series } from "./project-overview";

describe("medianOf", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([3])).toBe(3);
    expect(medianOf([5, 1, 3])).toBe(3);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("p95TrendOf", () => {
  it("says up (worse) above +5% of the previous median, down below −5%, flat within", () => {
    // Previous median of [9, 11, 10] is 10.
    expect(p95TrendOf([10.51, 9, 11, 10])).toMatchObject({ kind: "change", direction: "up", medianMs: 10, previousRuns: 3 });
    expect(p95TrendOf([10.5, 9, 11, 10])).toMatchObject({ direction: "flat" }); // +5% exactly is not > 5%
    expect(p95TrendOf([9.49, 9, 11, 10])).toMatchObject({ direction: "down" });
    expect(p95TrendOf([9.5, 9, 11, 10])).toMatchObject({ direction: "flat" }); // −5% exactly
    const trend = p95TrendOf([13.2, 12, 12]);
    expect(trend.kind === "change" && trend.relativeDelta).toBeCloseTo(0.1, 10);
  });

  it("uses at most the 10 previous runs, skipping runs without a p95", () => {
    // The 11th previous value (1000) is outside the window; nulls are skipped.
    const values = [10, null, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1000];
    expect(p95TrendOf(values)).toMatchObject({ direction: "flat", medianMs: 10, previousRuns: 9 });
  });

  it("is a typed 'not enough data' when there is nothing to compare", () => {
    expect(p95TrendOf([])).toEqual({ kind: "insufficient", reason: "no runs yet" });
    expect(p95TrendOf([5])).toEqual({ kind: "insufficient", reason: "need 2 runs with a p95, have 1" });
    expect(p95TrendOf([null, 5, 5])).toEqual({ kind: "insufficient", reason: "the latest run has no p95" });
    expect(p95TrendOf([5, null])).toMatchObject({ kind: "insufficient" });
    expect(p95TrendOf([5, 0])).toMatchObject({ kind: "insufficient" });
    expect(p95TrendOf([0, 0])).toMatchObject({ kind: "change", direction: "flat" });
  });
});

describe("toP95Series", () => {
  it("turns newest-first results into oldest → newest points, keeping gaps as null", () => {
    const at = (day: number) => new Date(`2026-11-${String(day).padStart(2, "0")}T00:00:00Z`);
    expect(toP95Series([
      { startedAt: at(3), p95Ms: 3 },
      { startedAt: at(2), p95Ms: null },
      { startedAt: at(1), p95Ms: 1 },
    ])).toEqual([
      { x: at(1).getTime(), y: 1 },
      { x: at(2).getTime(), y: null },
      { x: at(3).getTime(), y: 3 },
    ]);
  });

  it("keeps the newest SERIES_LENGTH points", () => {
    const results = Array.from({ length: 40 }, (_, index) => ({ startedAt: new Date(40_000 - index * 1000), p95Ms: 40 - index }));
    const series = toP95Series(results);
    expect(series).toHaveLength(SERIES_LENGTH);
    expect(series.at(-1)).toEqual({ x: 40_000, y: 40 });
    expect(series[0]).toEqual({ x: 40_000 - 29_000, y: 11 });
  });
});

interface SeedEndpoint {
  name: string;
  p95: number;
}

async function seedRun(database: Database, slug: string, startedAt: string, endpoints: SeedEndpoint[], label = "baseline") {
  const text = JSON.stringify({
    schema: "benchtrack/v1",
    tool: "ghz",
    label,
    startedAt,
    environment: { git: { branch: "main" } },
    summary: { name: "all", requests: 1000, failures: 10, throughput: 100, latency: { unit: "ms", p50: 1, p95: 5, p99: 9 } },
    endpoints: endpoints.map(({ name, p95 }) => ({
      name,
      protocol: "grpc",
      requests: 100,
      failures: 2,
      throughput: 10,
      latency: { unit: "ms", p50: p95 / 2, p95, p99: p95 * 2 },
    })),
  });
  const outcome = await ingestRun(database.prisma, {
    projectSlug: slug,
    createProjectIfMissing: true,
    upload: receivedUpload(text),
    format: null,
    metadata: {},
    idempotencyKey: null,
  });
  return outcome.runId;
}

describe.each(testDatabaseTargets())("project overview on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("overview");
  const runIds: string[] = [];

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    // 35 runs: GetListing in all (p95 = 10 ms, then 20 ms in the latest), Legacy only in the first 3.
    for (let index = 0; index < 35; index++) {
      const startedAt = new Date(Date.UTC(2026, 10, 1) + index * 3_600_000).toISOString();
      const endpoints: SeedEndpoint[] = [{ name: "GetListing", p95: index === 34 ? 20 : 10 }];
      if (index < 3) endpoints.push({ name: "Legacy", p95: 7 + index });
      runIds.push(await seedRun(database, slug, startedAt, endpoints));
    }
  });

  afterAll(async () => {
    await database.close();
  });

  it("summarizes each endpoint from its last 30 results in one pass", async () => {
    const overview = await getProjectOverview(database.prisma, slug);
    expect(overview?.endpoints.map((endpoint) => [endpoint.name, endpoint.isInLatestRun])).toEqual([
      ["GetListing", true],
      ["Legacy", false],
    ]);
    const [getListing, legacy] = overview?.endpoints ?? [];
    expect(getListing).toMatchObject({
      protocol: "grpc",
      latest: { runId: runIds[34], p50Ms: 10, p95Ms: 20, p99Ms: 40, errorRate: 0.02, throughput: 10, requests: 100 },
      trend: { kind: "change", direction: "up", medianMs: 10, relativeDelta: 1, previousRuns: 10 },
    });
    expect(getListing?.series).toHaveLength(30);
    expect(getListing?.series.at(-1)).toEqual({ x: Date.UTC(2026, 10, 1) + 34 * 3_600_000, y: 20 });
    expect(getListing?.series[0]?.x).toBe(Date.UTC(2026, 10, 1) + 5 * 3_600_000);
    // Legacy's series is its own 3 runs, oldest first, though 32 runs came after.
    expect(legacy?.series.map((point) => point.y)).toEqual([7, 8, 9]);
    expect(legacy?.latest.runId).toBe(runIds[2]);
    expect(overview?.aggregate).toMatchObject({ name: "All endpoints", latest: { p95Ms: 5, errorRate: 0.01 }, trend: { direction: "flat" } });
    expect(overview?.aggregate?.series).toHaveLength(30);
  });

  it("lists the 10 most recent runs with their aggregates", async () => {
    const overview = await getProjectOverview(database.prisma, slug);
    expect(overview?.recentRuns.map((run) => run.id)).toEqual(runIds.slice(-10).reverse());
    expect(overview?.recentRuns[0]?.aggregate).toMatchObject({ p95Ms: 5, requests: 1000 });
    expect(overview?.hasMoreRuns).toBe(true);
  });

  it("is empty for a project without runs, and null for an unknown one", async () => {
    const empty = uniqueSlug("empty");
    await database.prisma.project.create({ data: { slug: empty, name: "Empty" } });
    expect(await getProjectOverview(database.prisma, empty)).toMatchObject({
      endpoints: [],
      aggregate: null,
      recentRuns: [],
      hasMoreRuns: false,
    });
    expect(await getProjectOverview(database.prisma, uniqueSlug("missing"))).toBeNull();
  });

  it("serves it through the project router, with a 404 for an unknown project", async () => {
    const caller = createCaller({ db: database.prisma });
    expect((await caller.project.overview({ project: slug })).endpoints).toHaveLength(2);
    await expect(caller.project.overview({ project: "no-such-project" })).rejects.toThrow(/not found/);
  });
});
