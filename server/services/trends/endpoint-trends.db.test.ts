import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { createMarker } from "./annotations";
import { getEndpointTrends } from "./endpoint-trends";
import { ServiceError } from "../platform/errors";

const ROUTE = "GET /api/listings/:id";
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 9);

interface SeedRun {
  day: number;
  label: string;
  branch: string;
  round?: number;
  p95: number;
  cpu?: number;
  memory?: number;
  withRoute?: boolean;
  tool?: string;
}

/** Uploads one run in the Benchtrack format through the real ingest path. */
async function seedRun(database: Database, slug: string, run: SeedRun) {
  const endpoints = [
    {
      name: "GetListing",
      requests: 100,
      failures: run.p95 > 50 ? 5 : 0,
      throughput: 200 - run.p95,
      latency: {
        unit: "ms",
        mean: run.p95 / 2,
        p50: run.p95 / 2,
        p90: run.p95 * 0.9,
        p95: run.p95,
        p99: run.p95 * 1.5,
        max: run.p95 * 3,
      },
      ...(run.cpu !== undefined && { metrics: { cpu: { value: run.cpu, unit: "%", better: "lower" } } }),
    },
    ...(run.withRoute ? [{ name: ROUTE, requests: 10, failures: 0, latency: { unit: "ms", p95: 1 } }] : []),
  ];
  const document = {
    schema: "benchtrack/v1",
    tool: run.tool ?? "custom",
    label: run.label,
    ...(run.round !== undefined && { round: run.round }),
    startedAt: new Date(T0 + run.day * DAY).toISOString(),
    environment: { git: { commit: `c0ffee${run.day}abcdef`, branch: run.branch } },
    endpoints,
    summary: { name: "all", requests: 110, failures: 0, throughput: 250, latency: { unit: "ms", p95: run.p95 + 1 } },
    ...(run.memory !== undefined && { metrics: { memory: { value: run.memory, unit: "MB", better: "lower" } } }),
  };
  return ingestTestRun(database.prisma, slug, document, { format: "benchtrack" });
}

const ALL = { branches: ["all"], label: null, range: "all" } as const;

describe.each(testDatabaseTargets())("endpoint trends on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("trends");
  const runIds: string[] = [];

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    const runs: SeedRun[] = [
      { day: 0, label: "baseline", branch: "main", round: 1, p95: 10, cpu: 40, memory: 100, withRoute: true },
      { day: 1, label: "baseline", branch: "main", round: 2, p95: 12, cpu: 42, memory: 101 },
      { day: 2, label: "ManagedAsync", branch: "feature/async", round: 1, p95: 60, cpu: 55, memory: 120 },
      { day: 40, label: "ManagedAsync", branch: "feature/async", round: 2, p95: 8, cpu: 35, memory: 90 },
    ];
    for (const run of runs) runIds.push((await seedRun(database, slug, run)).run.id);
  });

  afterAll(async () => {
    await database.close();
  });

  it("returns an endpoint's history oldest first, the latest runs newest first, and the filter values", async () => {
    const trends = await getEndpointTrends(database.prisma, { projectSlug: slug, endpoint: "GetListing", ...ALL });

    expect(trends.endpoint).toMatchObject({ name: "GetListing", isAggregate: false });
    expect(trends.endpoints).toEqual([ROUTE, "GetListing"].sort().map((name) => ({ name, protocol: null })));
    expect(trends.filters).toEqual({
      branches: ["feature/async", "main"],
      labels: ["baseline", "ManagedAsync"],
      tools: ["custom"],
      pullRequests: [],
    });
    expect(trends.tool).toBe("custom");
    expect(trends.totalRuns).toBe(4);
    expect(trends.isDownsampled).toBe(false);
    expect(trends.points.map((point) => point.runId)).toEqual(runIds);
    expect(trends.points.map((point) => point.order)).toEqual([1, 2, 3, 4]);
    expect(trends.points[2]).toMatchObject({
      time: T0 + 2 * DAY,
      label: "ManagedAsync",
      round: 1,
      branch: "feature/async",
      commitShort: "c0ffee2",
      p50Ms: 30,
      p95Ms: 60,
      p99Ms: 90,
      maxMs: 180,
      throughput: 140,
      errorRate: 0.05,
    });
    expect(trends.latest.map((point) => point.runId)).toEqual([...runIds].reverse());
    expect(trends.latest[0]?.order).toBe(4);
  });

  it("trends the endpoint's custom metrics with unit and direction", async () => {
    const trends = await getEndpointTrends(database.prisma, { projectSlug: slug, endpoint: "GetListing", ...ALL });
    expect(trends.metrics).toHaveLength(1);
    expect(trends.metrics[0]).toMatchObject({ key: "cpu", unit: "%", better: "lower", total: 4, isDownsampled: false });
    expect(trends.metrics[0]?.points.map((point) => [point.order, point.value])).toEqual([
      [1, 40],
      [2, 42],
      [3, 55],
      [4, 35],
    ]);
    expect(trends.metrics[0]?.points[0]).toMatchObject({ label: "baseline", branch: "main", commitShort: "c0ffee0" });
  });

  it("trends the run aggregate and run-level metrics on _all", async () => {
    const trends = await getEndpointTrends(database.prisma, { projectSlug: slug, endpoint: "_all", ...ALL });
    expect(trends.endpoint).toMatchObject({ name: "_all", isAggregate: true });
    expect(trends.points.map((point) => point.p95Ms)).toEqual([11, 13, 61, 9]);
    expect(trends.metrics.map((metric) => [metric.key, metric.unit, metric.total])).toEqual([["memory", "MB", 4]]);
  });

  it("filters by branch, label and range, numbering runs within the filtered history", async () => {
    const byBranch = await getEndpointTrends(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      ...ALL,
      branches: ["feature/async"],
    });
    expect(byBranch.points.map((point) => [point.order, point.p95Ms])).toEqual([
      [1, 60],
      [2, 8],
    ]);
    // The selects still offer every value, not just the filtered one.
    expect(byBranch.filters.branches).toEqual(["feature/async", "main"]);
    expect(byBranch.metrics[0]?.points.map((point) => point.value)).toEqual([55, 35]);

    const byLabel = await getEndpointTrends(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      ...ALL,
      label: "baseline",
    });
    expect(byLabel.totalRuns).toBe(2);
    expect(byLabel.latest.map((point) => point.label)).toEqual(["baseline", "baseline"]);

    const recent = await getEndpointTrends(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      ...ALL,
      range: "30d",
      now: new Date(T0 + 45 * DAY),
    });
    expect(recent.points.map((point) => point.runId)).toEqual([runIds[3]]);
    expect(recent.totalRuns).toBe(1);
  });

  it("draws one tool's series by default, the latest run's; tool=all mixes them on request", async () => {
    const mixed = uniqueSlug("tools");
    const seeds: SeedRun[] = [
      { day: 0, label: "nightly", branch: "main", p95: 30, tool: "locust" },
      { day: 1, label: "nightly", branch: "main", p95: 31, tool: "locust" },
      { day: 2, label: "nightly", branch: "main", p95: 10, tool: "k6" },
      { day: 3, label: "nightly", branch: "main", p95: 11, tool: "k6" },
    ];
    for (const run of seeds) await seedRun(database, mixed, run);
    const trends = (tool: string | null) =>
      getEndpointTrends(database.prisma, { projectSlug: mixed, endpoint: "GetListing", ...ALL, tool });
    const byDefault = await trends(null);
    expect(byDefault.tool).toBe("k6");
    expect(byDefault.points.map((point) => point.p95Ms)).toEqual([10, 11]);
    expect(byDefault.filters.tools).toEqual(["k6", "locust"]);
    expect((await trends("locust")).points.map((point) => point.p95Ms)).toEqual([30, 31]);
    const all = await trends("all");
    expect(all.tool).toBeNull();
    expect(all.totalRuns).toBe(4);
    // The aggregate and the custom metrics follow the same series.
    expect((await getEndpointTrends(database.prisma, { projectSlug: mixed, endpoint: "_all", ...ALL })).totalRuns).toBe(
      2,
    );
  });

  it("finds endpoints by their decoded name, with a single run", async () => {
    const trends = await getEndpointTrends(database.prisma, { projectSlug: slug, endpoint: ROUTE, ...ALL });
    expect(trends.totalRuns).toBe(1);
    expect(trends.points).toHaveLength(1);
    expect(trends.points[0]).toMatchObject({ p95Ms: 1, p99Ms: null, throughput: null });
    expect(trends.metrics).toEqual([]);
  });

  it("says NOT_FOUND for an unknown endpoint or project", async () => {
    const unknownEndpoint = await getEndpointTrends(database.prisma, {
      projectSlug: slug,
      endpoint: "Nope",
      ...ALL,
    }).catch((caught: unknown) => caught);
    expect(unknownEndpoint).toBeInstanceOf(ServiceError);
    expect(unknownEndpoint).toMatchObject({ code: "not_found", message: 'Endpoint "Nope" not found' });
    const missing = uniqueSlug("missing");
    const unknownProject = await getEndpointTrends(database.prisma, {
      projectSlug: missing,
      endpoint: "_all",
      ...ALL,
    }).catch((caught: unknown) => caught);
    expect(unknownProject).toBeInstanceOf(ServiceError);
    expect(unknownProject).toMatchObject({ code: "not_found", message: `Project "${missing}" not found` });

    const caller = createCaller({ db: database.prisma });
    const error = await caller.endpoint.trends({ project: slug, endpoint: "Nope" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe("NOT_FOUND");
  });

  it("marks change points, pinned baselines and annotations at their runs", async () => {
    const markedSlug = uniqueSlug("trends-marked");
    const marked: string[] = [];
    for (const run of [
      { day: 0, label: "baseline", branch: "main", p95: 10 },
      { day: 1, label: "baseline", branch: "main", p95: 40 },
      { day: 2, label: "baseline", branch: "main", p95: 5 },
    ]) {
      marked.push((await seedRun(database, markedSlug, run)).run.id);
    }
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug: markedSlug } });
    const endpoint = await database.prisma.endpoint.findFirstOrThrow({
      where: { projectId: project.id, name: "GetListing" },
    });
    const change = { projectId: project.id, endpointId: endpoint.id, metric: "p95", beforeValue: 1, afterValue: 1 };
    const incident = await database.prisma.incident.create({
      data: { projectId: project.id, number: 1, firstRunId: marked[1]!, state: "investigating", detectorVersion: 1 },
    });
    await database.prisma.change.createMany({
      data: [
        { ...change, kind: "regression", firstRunId: marked[1]!, deltaPct: 300, incidentId: incident.id },
        { ...change, kind: "improvement", firstRunId: marked[2]!, deltaPct: -87.54 },
      ],
    });
    await database.prisma.baselinePin.create({
      data: { projectId: project.id, forLabel: "nightly", runIds: [marked[0]!] },
    });
    const startOf = async (id: string) => (await database.prisma.run.findUniqueOrThrow({ where: { id } })).startedAt;
    await database.prisma.annotation.create({
      data: { projectId: project.id, runId: marked[2]!, at: await startOf(marked[2]!), text: "deployed v2.3" },
    });
    // Markers as a deploy pipeline posts them: one at a time between the first two runs, one on a run,
    // and one after the last run (nothing drawn marks it yet).
    const admin = { kind: "admin" } as const;
    const between = new Date((await startOf(marked[0]!)).getTime() + 3_600_000);
    await createMarker(database.prisma, admin, markedSlug, { text: "v1.4 rolled out", kind: "deploy", at: between.toISOString() });
    await createMarker(database.prisma, admin, markedSlug, { text: "pool 20 → 50", kind: "change", runId: marked[1]! });
    await createMarker(database.prisma, admin, markedSlug, { text: "later", kind: "deploy", at: "2099-01-01T00:00:00Z" });

    const trends = await getEndpointTrends(database.prisma, {
      projectSlug: markedSlug,
      endpoint: "GetListing",
      ...ALL,
    });
    expect(trends.markers.map((marker) => [marker.order, marker.kind, marker.text])).toEqual([
      [1, "pinned", "baseline (nightly)"],
      [2, "deploy", "v1.4 rolled out"],
      [2, "regression", "Incident #1 (Investigating): p95 +300.0%"],
      [2, "change", "pool 20 → 50"],
      [3, "improvement", "p95 −87.5%"],
      [3, "annotation", "deployed v2.3"],
    ]);
    // The incident's marker carries its number, which the chart links to the incident's page.
    expect(trends.markers.find((marker) => marker.kind === "regression")).toMatchObject({ runId: marked[1], incidentNumber: 1 });
    // A marker at a time sits at its time on a time axis, at the first run after it on a run axis.
    expect(trends.markers.find((marker) => marker.kind === "deploy")).toMatchObject({ runId: null, time: between.getTime() });
    // The aggregate has no change point of its own here.
    const aggregate = await getEndpointTrends(database.prisma, { projectSlug: markedSlug, endpoint: "_all", ...ALL });
    expect(aggregate.markers.map((marker) => marker.kind)).toEqual(["pinned", "deploy", "change", "annotation"]);
  });
});
