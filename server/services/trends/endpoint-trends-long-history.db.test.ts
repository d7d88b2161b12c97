import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { createMarker } from "./annotations";
import { getEndpointTrends } from "./endpoint-trends";

/**
 * A history longer than the page draws: thinned on the server from the database's preselected candidates
 * (trend-history-sql.ts), its markers placed though their runs are no candidates, and its read kept by
 * the history cache (trend-history-cache.ts) until an upload or a deletion changes the history.
 */
const T0 = Date.UTC(2026, 0, 1, 9);

const ALL = { branches: ["all"], label: null, range: "all" } as const;

describe.each(testDatabaseTargets())("endpoint trends of a long history on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("thins a long history on the server and says how much it kept", async () => {
    const longSlug = uniqueSlug("trends-long");
    const project = await database.prisma.project.create({ data: { slug: longSlug, name: longSlug } });
    const endpoint = await database.prisma.endpoint.create({ data: { projectId: project.id, name: "GetListing" } });
    const count = 300;
    const runs = Array.from({ length: count }, (_, index) => ({
      id: `${longSlug}-run-${String(index).padStart(4, "0")}`,
      projectId: project.id,
      tool: "custom",
      format: "benchtrack",
      label: "nightly",
      gitBranch: "main",
      startedAt: new Date(T0 + index * 3_600_000),
    }));
    await database.prisma.run.createMany({ data: runs });
    await database.prisma.result.createMany({
      data: runs.map((run, index) => ({
        runId: run.id,
        projectId: project.id,
        endpointId: endpoint.id,
        startedAt: run.startedAt,
        p95Ms: index === 123 ? 500 : 10 + (index % 3),
        p99Ms: 20,
        errorRate: index === 201 ? 0.3 : 0,
        throughput: 100,
      })),
    });
    await database.prisma.metric.createMany({
      data: runs.map((run, index) => ({
        runId: run.id,
        projectId: project.id,
        endpointId: endpoint.id,
        startedAt: run.startedAt,
        key: "cpu",
        value: index === 77 ? 99 : 30,
        unit: "%",
        better: "lower" as const,
      })),
    });

    // A run in the middle carries an annotation: its marker needs its position, though it is no candidate.
    await database.prisma.annotation.create({
      data: { projectId: project.id, runId: runs[151]!.id, at: runs[151]!.startedAt, text: "deployed v2" },
    });
    // A deploy between two runs far from any candidate: placed at the run after it.
    await createMarker(database.prisma, { kind: "admin" }, longSlug, {
      text: "v2.1",
      kind: "deploy",
      at: new Date(runs[211]!.startedAt.getTime() - 60_000).toISOString(),
    });

    const trends = await getEndpointTrends(database.prisma, {
      projectSlug: longSlug,
      endpoint: "GetListing",
      ...ALL,
      maxPoints: 50,
    });
    // Longer than 4 × maxPoints: the database preselected candidates; every run keeps its true position.
    const position = new Map(runs.map((run, index) => [run.id, index + 1]));
    for (const point of trends.points) expect(point.order).toBe(position.get(point.runId));
    for (const point of trends.metrics[0]!.points) expect(point.order).toBe(position.get(point.runId));
    expect(trends.latest.map((point) => point.order)).toEqual(Array.from({ length: 20 }, (_, index) => count - index));
    expect(trends.markers).toEqual([
      expect.objectContaining({ runId: runs[151]!.id, order: 152, kind: "annotation" }),
      expect.objectContaining({ runId: null, order: 212, kind: "deploy" }),
    ]);
    expect(trends.totalRuns).toBe(count);
    expect(trends.isDownsampled).toBe(true);
    expect(trends.points.length).toBeLessThanOrEqual(50);
    expect(trends.points[0]?.order).toBe(1);
    expect(trends.points.at(-1)?.order).toBe(count);
    expect(trends.points.some((point) => point.p95Ms === 500)).toBe(true);
    expect(trends.points.some((point) => point.errorRate === 0.3)).toBe(true);
    // Whole rows: every drawn run has its run fields and all its values.
    for (const point of trends.points) expect(point).toMatchObject({ label: "nightly", branch: "main", p99Ms: 20 });
    expect(trends.latest).toHaveLength(20);
    expect(trends.latest[0]?.order).toBe(count);
    expect(trends.metrics[0]).toMatchObject({ key: "cpu", total: count, isDownsampled: true });
    expect(trends.metrics[0]?.points.length).toBeLessThanOrEqual(50);
    expect(trends.metrics[0]?.points.some((point) => point.value === 99)).toBe(true);

    // The next view of the whole history may reuse what this one read, but never after a change.
    const again = () =>
      getEndpointTrends(database.prisma, { projectSlug: longSlug, endpoint: "GetListing", ...ALL, maxPoints: 50 });
    expect((await again()).points).toEqual(trends.points);
    const late = { ...runs[0]!, id: `${longSlug}-run-late`, startedAt: new Date(T0 + count * 3_600_000) };
    await database.prisma.run.create({ data: late });
    await database.prisma.result.create({
      data: {
        runId: late.id,
        projectId: project.id,
        endpointId: endpoint.id,
        startedAt: late.startedAt,
        p95Ms: 11,
        p99Ms: 20,
      },
    });
    await database.prisma.metric.create({
      data: {
        runId: late.id,
        projectId: project.id,
        endpointId: endpoint.id,
        startedAt: late.startedAt,
        key: "cpu",
        value: 31,
        unit: "%",
        better: "lower",
      },
    });
    await database.prisma.annotation.create({
      data: { projectId: project.id, runId: runs[40]!.id, at: runs[40]!.startedAt, text: "canary" },
    });
    const updated = await again();
    expect(updated.totalRuns).toBe(count + 1);
    expect(updated.latest[0]).toMatchObject({ runId: late.id, order: count + 1 });
    expect(updated.metrics[0]!.points.at(-1)).toMatchObject({ runId: late.id, order: count + 1, value: 31 });
    expect(updated.markers.map((marker) => marker.order)).toEqual([41, 152, 212]);
    await database.prisma.run.delete({ where: { id: late.id } });
    expect((await again()).totalRuns).toBe(count);
  });
});
