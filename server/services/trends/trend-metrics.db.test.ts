import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import type { HistoryScope } from "./endpoint-page";
import { findMetricTrends } from "./trend-metrics";

const T0 = Date.UTC(2026, 0, 1, 9);
const HOUR = 3_600_000;

/** A client that counts the statements it sends (model operations and raw queries alike). */
function countingClient(prisma: PrismaClient) {
  const counter = { statements: 0 };
  const client = prisma.$extends({
    query: {
      $allOperations({ args, query }) {
        counter.statements += 1;
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  return { client, counter };
}

describe.each(testDatabaseTargets())("custom metric trends on $name", ({ target }) => {
  let database: Database;
  let scope: HistoryScope;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    const slug = uniqueSlug("trend-metrics");
    const project = await database.prisma.project.create({ data: { slug, name: slug } });
    const endpoint = await database.prisma.endpoint.create({ data: { projectId: project.id, name: "GetListing" } });
    scope = { projectId: project.id, endpointId: endpoint.id, since: null, branches: null, label: null, tool: null };
    // Four runs: main, main, feature, main. The unit a metric is shown in is its newest run's.
    const branches = ["main", "main", "feature", "main"];
    const runs = branches.map((branch, index) => ({
      id: `${slug}-run-${index}`,
      projectId: project.id,
      tool: "custom",
      format: "benchtrack",
      gitBranch: branch,
      startedAt: new Date(T0 + index * HOUR),
    }));
    await database.prisma.run.createMany({ data: runs });
    await database.prisma.result.createMany({
      data: runs.map((run) => ({
        runId: run.id,
        projectId: project.id,
        endpointId: endpoint.id,
        startedAt: run.startedAt,
        p95Ms: 10,
      })),
    });
    const metric = (
      index: number,
      key: string,
      value: number,
      unit: string | null,
      better: "lower" | "higher" | null,
    ) => ({
      runId: runs[index]!.id,
      projectId: project.id,
      endpointId: endpoint.id,
      startedAt: runs[index]!.startedAt,
      key,
      value,
      unit,
      better,
    });
    await database.prisma.metric.createMany({
      data: [
        metric(0, "cpu", 40, "%", "lower"),
        metric(1, "cpu", 41, "%", "lower"),
        metric(2, "cpu", 0.5, "ratio", "higher"),
        metric(3, "cpu", 42, "percent", "lower"),
        metric(0, "memory", 100, "MB", "lower"),
        metric(2, "memory", 110, "MiB", "lower"),
        metric(1, "queue", 7, null, null),
        metric(3, "queue", 9, "messages", null),
        metric(2, "rps", 300, "req/s", "higher"),
      ],
    });
  });

  afterAll(async () => {
    await database.close();
  });

  it("gives each metric, by key, the unit and direction its newest run states", async () => {
    const metrics = await findMetricTrends(database.prisma, scope, 300);
    expect(metrics.map(({ key, unit, better, total }) => ({ key, unit, better, total }))).toEqual([
      { key: "cpu", unit: "percent", better: "lower", total: 4 },
      { key: "memory", unit: "MiB", better: "lower", total: 2 },
      { key: "queue", unit: "messages", better: null, total: 2 },
      { key: "rps", unit: "req/s", better: "higher", total: 1 },
    ]);
    expect(metrics[0]?.points.map((point) => [point.order, point.value, point.branch])).toEqual([
      [1, 40, "main"],
      [2, 41, "main"],
      [3, 0.5, "feature"],
      [4, 42, "main"],
    ]);
  });

  it("takes the newest run under the page's filters, and only the keys those runs have", async () => {
    const onFeature = await findMetricTrends(database.prisma, { ...scope, branches: ["feature"] }, 300);
    expect(onFeature.map(({ key, unit, better }) => ({ key, unit, better }))).toEqual([
      { key: "cpu", unit: "ratio", better: "higher" },
      { key: "memory", unit: "MiB", better: "lower" },
      { key: "rps", unit: "req/s", better: "higher" },
    ]);
    const onMain = await findMetricTrends(database.prisma, { ...scope, branches: ["main"] }, 300);
    expect(onMain.map(({ key, unit }) => [key, unit])).toEqual([
      ["cpu", "percent"],
      ["memory", "MB"],
      ["queue", "messages"],
    ]);
  });

  it("reads units, series and runs in three statements however many metrics there are", async () => {
    const { client, counter } = countingClient(database.prisma);
    const metrics = await findMetricTrends(client, scope, 300);
    expect(metrics).toHaveLength(4);
    expect(counter.statements).toBe(3);

    const { client: single, counter: singleCounter } = countingClient(database.prisma);
    expect(await findMetricTrends(single, { ...scope, branches: ["feature"] }, 300)).toHaveLength(3);
    expect(singleCounter.statements).toBe(3);
  });

  it("reads only the keys when the history has no custom metric", async () => {
    const { client, counter } = countingClient(database.prisma);
    expect(await findMetricTrends(client, { ...scope, branches: ["nowhere"] }, 300)).toEqual([]);
    expect(counter.statements).toBe(1);
  });
});
