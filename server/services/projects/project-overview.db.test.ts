import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { updateIncidents } from "../incidents/incidents";
import { getProjectOverview } from "./project-overview";
import { detectRegressionsAfterRun } from "../incidents/regression-detection";

interface SeedEndpoint {
  name: string;
  p95: number;
}

async function seedRun(database: Database, slug: string, startedAt: string, endpoints: SeedEndpoint[], label = "baseline") {
  const outcome = await ingestTestRun(database.prisma, slug, {
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
  return outcome.run.id;
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

  it("counts the open regressions and checks the upload schedule for the banners", async () => {
    const overview = await getProjectOverview(database.prisma, slug);
    expect(overview?.openRegressions).toBe(
      await database.prisma.change.count({ where: { project: { slug }, kind: "regression", incident: { state: { in: ["open", "investigating"] } } } }),
    );
    // 35 hourly runs in November 2026, read now: a schedule that has stopped.
    expect(overview?.freshness.status).toBe("missing");
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

describe.each(testDatabaseTargets())("the overview's trend column and the incidents on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("overview-incident");
  const runIds: string[] = [];
  // 20 runs of GetListing at 10 ms, then 10 at 13 ms (+30%); Search stays at 5 ms throughout.
  const NOISE = [0.1, -0.1, 0.2, -0.2, 0, 0.15, -0.15, 0.05, -0.05, 0.1];

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (let index = 0; index < 30; index++) {
      const startedAt = new Date(Date.UTC(2026, 10, 1) + index * 3_600_000).toISOString();
      const noise = NOISE[index % NOISE.length]!;
      runIds.push(await seedRun(database, slug, startedAt, [
        { name: "GetListing", p95: (index < 20 ? 10 : 13) + noise },
        { name: "Search", p95: 5 + noise / 2 },
      ]));
    }
    // Change-point detection at the newest run, as the job after its upload does: one step, one incident.
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    const newest = await database.prisma.run.findUniqueOrThrow({ where: { id: runIds.at(-1)! } });
    await detectRegressionsAfterRun(database.prisma, project, newest);
  });

  afterAll(async () => {
    await database.close();
  });

  it("names the open incident on the endpoint it moved, and compares the latest run with the level before the step", async () => {
    const incidents = await database.prisma.incident.findMany({ where: { project: { slug } }, select: { number: true, state: true, firstRunId: true } });
    expect(incidents).toEqual([{ number: 1, state: "open", firstRunId: runIds[20] }]);
    const overview = await getProjectOverview(database.prisma, slug);
    expect(overview?.activeIncidents).toBe(1);
    const getListing = overview?.endpoints.find((endpoint) => endpoint.name === "GetListing");
    expect(getListing?.incidents).toEqual([{ number: 1, state: "open", metric: "p95", deltaPct: expect.closeTo(30, 0), firstRunId: runIds[20] }]);
    expect(getListing?.trend).toMatchObject({ kind: "change", direction: "up", previousRuns: 10, before: "incident #1" });
    // The other endpoint did not move: no incident on it; compared with the same regime as the gate's, it is flat.
    expect(overview?.endpoints.find((endpoint) => endpoint.name === "Search")).toMatchObject({ incidents: [], trend: { direction: "flat", before: "incident #1" } });
  });

  it("once the incident is accepted, the row names none and the new level is the trend's reference", async () => {
    await updateIncidents(database.prisma, { kind: "admin" }, slug, [1], { state: "accepted" }, { viaSession: false, name: "sam" }, { baseUrl: "http://localhost:3000" });
    const overview = await getProjectOverview(database.prisma, slug);
    expect(overview?.activeIncidents).toBe(0);
    const getListing = overview?.endpoints.find((endpoint) => endpoint.name === "GetListing");
    expect(getListing?.incidents).toEqual([]);
    expect(getListing?.trend).toMatchObject({ kind: "change", direction: "flat", previousRuns: 9, since: "accepted incident #1", before: null });
  });
});
