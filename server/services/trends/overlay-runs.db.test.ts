import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { getEndpointTrends } from "./endpoint-trends";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 9);

interface SeedRun {
  hour: number;
  branch: string;
  p95: number;
  tool?: string;
  pullRequest?: number;
}

async function seedRun(database: Database, slug: string, run: SeedRun) {
  const document = {
    schema: "benchtrack/v1",
    tool: run.tool ?? "custom",
    label: "nightly",
    startedAt: new Date(T0 + run.hour * HOUR).toISOString(),
    environment: {
      git: { commit: `c0ffee${run.hour}abcdef`, branch: run.branch, pullRequest: run.pullRequest ?? null },
    },
    endpoints: [
      { name: "GetListing", requests: 100, failures: 0, latency: { unit: "ms", p50: run.p95 / 2, p95: run.p95 } },
    ],
  };
  return ingestTestRun(database.prisma, slug, document, { format: "benchtrack" });
}

// main: p95 100, 102, 99, 101, 100, 103 at hours 0…5 (band at hour 5: 91.6 … 109.4 ms, see
// trend-overlay.test.ts). feature/slow: 3 runs at 130 ms after main's 4th, 5th and 6th runs (PR #7);
// a k6 run of the branch (another series) and a branch run of another label are left out.
const MAIN = [100, 102, 99, 101, 100, 103];

describe.each(testDatabaseTargets())("trend overlay on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("overlay");

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    for (const [hour, p95] of MAIN.entries()) await seedRun(database, slug, { hour, branch: "main", p95 });
    for (const hour of [3.5, 4.5, 5.5]) {
      await seedRun(database, slug, { hour, branch: "feature/slow", p95: 130, pullRequest: 7 });
    }
    await seedRun(database, slug, { hour: 5.7, branch: "feature/slow", p95: 500, tool: "k6", pullRequest: 7 });
  });

  afterAll(async () => {
    await database?.close();
  });

  const query = (overlay: Parameters<typeof getEndpointTrends>[1]["overlay"], extra = {}) =>
    getEndpointTrends(database.prisma, {
      projectSlug: slug,
      endpoint: "GetListing",
      label: null,
      tool: "custom",
      range: "all",
      overlay,
      ...extra,
    });

  it("draws a branch's runs over the default branch, with main's band and a caption", async () => {
    const data = await query({ kind: "branch", branch: "feature/slow" });
    // The base is main only (not every branch), so the branch's runs are not in it.
    expect(data.totalRuns).toBe(6);
    expect(data.points.map((point) => point.p95Ms)).toEqual(MAIN);
    const overlay = data.overlay!;
    expect(overlay.key).toBe("branch:feature/slow");
    expect(overlay.baseBranch).toBe("main");
    // Same tool: the k6 run of the branch is another series.
    expect(overlay.points.map((point) => point.p95Ms)).toEqual([130, 130, 130]);
    expect(overlay.points.map((point) => point.time)).toEqual([3.5, 4.5, 5.5].map((hour) => T0 + hour * HOUR));
    // Run axis: after main's 4th, 5th and 6th runs.
    expect(overlay.points.map((point) => point.order)).toEqual([4.5, 5.5, 6.5]);
    expect(overlay.points.map((point) => point.position)).toEqual([null, "above", "above"]);
    // The band starts at main's 5th run (5 runs known).
    expect(overlay.band.map((band) => band.order)).toEqual([5, 6]);
    expect(overlay.band[1]!.medianMs).toBeCloseTo(100.5, 10);
    expect(overlay.band[1]!.lowMs).toBeCloseTo(91.6044, 4);
    expect(overlay.band[1]!.highMs).toBeCloseTo(109.3956, 4);
    expect(overlay.caption).toBe(
      "Of the branch feature/slow's last 3 runs, 2 are above main's p95 noise band and 1 has no band to compare with.",
    );
    expect(data.filters.pullRequests).toEqual([7]);
  });

  it("draws a pull request's runs the same way, and its other tool's runs when the page asks for that tool", async () => {
    const data = await query({ kind: "pr", pullRequest: 7 });
    expect(data.overlay!.name).toBe("PR #7");
    expect(data.overlay!.points.map((point) => point.pullRequest)).toEqual([7, 7, 7]);
    const k6 = await query({ kind: "pr", pullRequest: 7 }, { tool: "k6" });
    expect(k6.totalRuns).toBe(0);
    expect(k6.overlay!.points.map((point) => point.p95Ms)).toEqual([500]);
    expect(k6.overlay!.caption).toBe(
      "Not enough data: main's p95 noise band needs 5 of its runs before PR #7's last run.",
    );
  });

  it("is absent without an overlay: the page draws main alone by default, every branch when asked", async () => {
    const data = await query(null);
    expect(data.overlay).toBeNull();
    expect(data.branches).toEqual({ kind: "some", branches: ["main"], why: "default" });
    expect(data.totalRuns).toBe(6);
    expect(data.points.every((point) => point.branch === "main")).toBe(true);
    const every = await query(null, { branches: ["all"] });
    expect(every.branches).toEqual({ kind: "every", why: "asked" });
    expect(every.totalRuns).toBe(9);
    expect(every.gate).toBeNull();
  });

  it("learns main's band after its recorded p95 change only, and never draws it below 0 ms", async () => {
    const stepSlug = uniqueSlug("overlay-step");
    // main: 8 runs near 2 ms, noisy (rounds differ by half the level), then 8 near 6 ms; the branch after them.
    const before = [1.5, 2.5, 1.4, 2.6, 2.0, 1.3, 2.7, 1.9];
    const after = [6.1, 5.8, 6.4, 5.9, 6.2, 6.0, 5.7, 6.3];
    const ids: string[] = [];
    for (const [hour, p95] of [...before, ...after].entries()) {
      ids.push((await seedRun(database, stepSlug, { hour, branch: "main", p95 })).run.id);
    }
    await seedRun(database, stepSlug, { hour: 16.5, branch: "feature/fast", p95: 2 });
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug: stepSlug }, select: { id: true } });
    const endpoint = await database.prisma.endpoint.findFirstOrThrow({ where: { projectId: project.id }, select: { id: true } });
    await database.prisma.change.create({
      data: { projectId: project.id, endpointId: endpoint.id, metric: "p95", kind: "regression", firstRunId: ids[8]!, beforeValue: 2, afterValue: 6, deltaPct: 200 },
    });
    const data = await getEndpointTrends(database.prisma, {
      projectSlug: stepSlug,
      endpoint: "GetListing",
      label: null,
      tool: "custom",
      range: "all",
      overlay: { kind: "branch", branch: "feature/fast" },
    });
    const band = data.overlay!.band;
    // Runs 5–8 before the step; from the step's 5th run (order 13) on, learnt from the new level alone.
    expect(band.map((entry) => entry.order)).toEqual([5, 6, 7, 8, 13, 14, 15, 16]);
    for (const entry of band.slice(4)) {
      expect(entry.lowMs).toBeGreaterThan(Math.max(...before));
      expect(entry.runs).toBe(entry.order - 8);
    }
    // The low level's noise is wider than the level: the band stops at 0 ms.
    expect(band.slice(0, 4).every((entry) => entry.lowMs === 0)).toBe(true);
    expect(Math.min(...band.map((entry) => entry.lowMs))).toBe(0);
    // The branch's run at 2 ms is below main's band as it stands after the step.
    expect(data.overlay!.points.map((point) => point.position)).toEqual(["below"]);
  });
});
