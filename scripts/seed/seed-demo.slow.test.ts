import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db";
import { formatDeltaPct, formatMetricValue } from "../../server/domain/format";
import { metricDefinition } from "../../server/domain/metrics";
import { metricShortName } from "../../server/domain/result-kind";
import { isBenchmarkFormat } from "../../server/domain/run";
import { median } from "../../server/domain/stats/descriptive";
import { openMigratedDatabase } from "../../server/testing/databases";
import { callerWith } from "../../server/testing/trpc-callers";
import { GRPC_PROJECT, HTTP_PROJECT, JOININTS_BRANCH, MANAGED_ASYNC_BRANCH, MICRO_PROJECT } from "./plan";
import { NotADemoProjectError, seedDemo } from "./seed-demo";
import type { SeedSummary } from "./seed-demo";

// Seeds a fresh in-memory database once (≈150 uploads through uploadRun) and checks the story holds.
const NOW = new Date("2026-11-22T12:00:00Z");

describe("seedDemo", () => {
  let database: Database;
  let first: SeedSummary;

  beforeAll(async () => {
    database = await openMigratedDatabase({ kind: "memory" });
    first = await seedDemo(database.prisma, { now: NOW });
  }, 300_000);

  afterAll(async () => {
    await database?.close();
  });

  it("creates the three demo projects, marked as demo, with a description and a repository", async () => {
    const projects = await database.prisma.project.findMany({ orderBy: { slug: "asc" } });
    expect(projects.map((project) => project.slug)).toEqual([HTTP_PROJECT, GRPC_PROJECT, MICRO_PROJECT].sort());
    for (const project of projects) {
      expect(project.isDemo).toBe(true);
      expect(project.description).toMatch(/demo data/i);
      expect(project.repoUrl).toBe(project.slug === MICRO_PROJECT ? "https://github.com/example/microbench" : "https://github.com/example/listings");
    }
    expect(first.created).toBe(first.runs);
  });

  it("spreads runs over weeks, branches, labels and all three tools, every one marked as demo", async () => {
    const runs = await database.prisma.run.findMany({
      select: { startedAt: true, gitBranch: true, label: true, tool: true, isDemo: true, gitCommit: true, round: true },
    });
    expect(runs.length).toBe(first.runs);
    expect(runs.every((run) => run.isDemo)).toBe(true);
    const days = new Set(runs.map((run) => run.startedAt.toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(35);
    const branches = new Set(runs.map((run) => run.gitBranch));
    expect(branches).toContain("main");
    expect(branches).toContain(MANAGED_ASYNC_BRANCH);
    expect(branches.size).toBeGreaterThanOrEqual(3);
    const labels = new Set(runs.map((run) => run.label));
    expect([...labels].sort()).toEqual(["ManagedAsync", "baseline", "nightly"]);
    expect(new Set(runs.map((run) => run.tool))).toEqual(new Set(["k6", "locust", "ghz", "go"]));
    expect(runs.every((run) => /^[0-9a-f]{7,40}$/.test(run.gitCommit ?? ""))).toBe(true);
    const managedAsyncRounds = runs.filter((run) => run.label === "ManagedAsync").map((run) => run.round);
    expect(managedAsyncRounds.sort()).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect(runs.every((run) => run.startedAt < NOW)).toBe(true);
  });

  it("gives a run only attributes that describe it, not the tags its fixture was recorded with", async () => {
    const runs = await database.prisma.run.findMany({ select: { label: true, round: true, gitBranch: true, attributes: true } });
    const described = runs.map(({ attributes, ...run }) => ({ ...run, attributes: attributes as Record<string, string> }));
    // The ghz fixtures were recorded with `variant` and `round` tags (the recording's, not the demo run's).
    const mainNightlies = described.filter((run) => run.label === "nightly" && run.gitBranch === "main");
    expect(mainNightlies.length).toBeGreaterThan(40);
    expect(mainNightlies.filter((run) => "variant" in run.attributes || "round" in run.attributes)).toEqual([]);
    for (const run of described) {
      if ("round" in run.attributes) expect(run.attributes.round).toBe(String(run.round));
      if ("variant" in run.attributes) expect(run.attributes.variant.toLowerCase()).toBe(run.label?.toLowerCase());
    }
  });

  it("shows in its inboxes exactly what the README's demo paragraph says", async () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    // The paragraph as one line: the README wraps at any word.
    const paragraph = (readme.split("\n\n").find((text) => text.includes("npm run seed:demo")) ?? "").replace(/\s+/g, " ");
    const caller = callerWith(database.prisma, null);
    const said: string[] = [];
    let incidentCount = 0;
    for (const slug of [HTTP_PROJECT, GRPC_PROJECT, MICRO_PROJECT]) {
      const { incidents } = await caller.incident.inbox({ project: slug });
      incidentCount += incidents.length;
      // "`listings-demo` lists 2 incidents", "`listings-grpc-demo` 1": the count after the project's name.
      expect({ slug, incidents: Number(new RegExp(`\`${slug}\`\\D*(\\d+)`).exec(paragraph)?.[1]) }).toEqual({ slug, incidents: incidents.length });
      for (const incident of incidents) {
        const run = await database.prisma.run.findUniqueOrThrow({ where: { id: incident.firstRunId }, select: { tool: true, label: true, format: true } });
        const largest = incident.regressions[0]!;
        const unit = metricDefinition(largest.metric)?.unit ?? null;
        const aggregateOnly = incident.endpoints.every((endpoint) => endpoint === null);
        const changes = `${incident.regressions.length} ${incident.regressions.length === 1 ? "change" : "changes"}`;
        const noun = isBenchmarkFormat(run.format) ? "benchmark" : "endpoint";
        const where = aggregateOnly ? "the all-endpoints aggregate" : `${incident.endpoints.length} ${noun}${incident.endpoints.length === 1 ? "" : "s"}`;
        const metric = metricShortName(largest.metric, noun);
        const what = aggregateOnly ? metric : `${largest.endpoint?.name} ${metric}`;
        const values = `${formatMetricValue(largest.metric, unit, largest.beforeValue)} → ${formatMetricValue(largest.metric, unit, largest.afterValue)}`;
        said.push(`${run.tool} ${run.label} runs: ${changes} on ${where}, the largest ${what} ${values}, ${formatDeltaPct(largest.deltaPct)}`);
      }
    }
    for (const phrase of said) expect(paragraph).toContain(phrase);
    // And no incident the demo does not have.
    expect(paragraph.match(/ changes? on /g)?.length).toBe(incidentCount);
  });

  it("names the five baseline and five ManagedAsync rounds of each project for a group comparison", async () => {
    expect(first.comparisons.map((comparison) => comparison.projectSlug).sort()).toEqual([HTTP_PROJECT, GRPC_PROJECT]);
    for (const comparison of first.comparisons) {
      const sides = [
        [comparison.baseRunIds, "baseline", "main"],
        [comparison.headRunIds, "ManagedAsync", MANAGED_ASYNC_BRANCH],
      ] as const;
      for (const [ids, label, branch] of sides) {
        const runs = await database.prisma.run.findMany({
          where: { id: { in: [...ids] } },
          select: { label: true, gitBranch: true, round: true },
        });
        expect(runs.map((run) => run.round).sort()).toEqual([1, 2, 3, 4, 5]);
        expect(runs.every((run) => run.label === label && run.gitBranch === branch)).toBe(true);
      }
    }
  });

  it.each([HTTP_PROJECT, GRPC_PROJECT])(
    "shows a step on main in %s: aggregate p95 > 1.3× after the merge",
    async (slug) => {
      const aggregates = await database.prisma.result.findMany({
        where: { endpointId: null, run: { gitBranch: "main", project: { slug } } },
        select: { startedAt: true, p95Ms: true },
      });
      const slowdownAt = first.plan.slowdownAt;
      const before = aggregates.filter((row) => row.startedAt < slowdownAt).map((row) => row.p95Ms!);
      const after = aggregates.filter((row) => row.startedAt >= slowdownAt).map((row) => row.p95Ms!);
      expect(before.length).toBeGreaterThan(20);
      expect(after.length).toBeGreaterThan(8);
      expect(median(after)).toBeGreaterThan(1.3 * (median(before) ?? Number.POSITIVE_INFINITY));
    },
  );

  it.each([HTTP_PROJECT, GRPC_PROJECT])(
    "opens regressions in %s's inbox at main's slowdown, as real uploads would",
    async (slug) => {
      const regressions = await database.prisma.change.findMany({
        where: { project: { slug }, kind: "regression", status: "open" },
        select: { metric: true, deltaPct: true, firstRun: { select: { startedAt: true, gitBranch: true } } },
      });
      const latency = regressions.filter((regression) => ["p50", "p95", "p99", "mean"].includes(regression.metric));
      expect(latency.length).toBeGreaterThan(0);
      // k6's iteration count and rate follow from latency: not a second, derived regression.
      expect(regressions.filter((regression) => regression.metric.startsWith("metrics.iterations"))).toEqual([]);
      const slowdownAt = first.plan.slowdownAt.getTime();
      for (const regression of latency) {
        expect(regression.firstRun.gitBranch).toBe("main");
        expect(regression.deltaPct).toBeGreaterThan(0);
        // Confirmed at the step, within a few runs of it (the detector re-estimates its position).
        expect(Math.abs(regression.firstRun.startedAt.getTime() - slowdownAt)).toBeLessThan(4 * 86_400_000);
      }
    },
  );

  it("keeps microbench-demo's go runs one series on one testbed, with JoinInts's step on main and its pull request", async () => {
    const runs = await database.prisma.run.findMany({
      where: { project: { slug: MICRO_PROJECT } },
      select: { id: true, tool: true, format: true, testbed: true, gitBranch: true, pullRequest: true, startedAt: true },
      orderBy: { startedAt: "asc" },
    });
    expect(new Set(runs.map((run) => `${run.tool} ${run.format} ${run.testbed}`))).toEqual(new Set(["go go-bench-text linux/amd64 · AMD EPYC"]));
    expect(runs.filter((run) => run.gitBranch === JOININTS_BRANCH).map((run) => run.pullRequest)).toEqual([52]);
    const joinInts = await database.prisma.result.findMany({
      where: { endpoint: { name: "example.com/microbench > BenchmarkJoinInts" }, run: { gitBranch: "main", project: { slug: MICRO_PROJECT } } },
      select: { meanMs: true, startedAt: true },
      orderBy: { startedAt: "asc" },
    });
    const means = joinInts.map((row) => row.meanMs!);
    expect(means.length).toBe(15);
    // The slower code's JoinInts formats each int with fmt.Sprint: several times slower, far beyond the noise.
    expect(median(means.slice(9))!).toBeGreaterThan(2 * median(means.slice(0, 9))!);
  });

  it("adds nothing when run again: every run is replayed", async () => {
    const regressionsBefore = await database.prisma.change.count();
    const countBefore = await database.prisma.run.count();
    const again = await seedDemo(database.prisma, { now: new Date(NOW.getTime() + 3 * 86_400_000) });
    expect(again).toMatchObject({ runs: first.runs, created: 0, replayed: first.runs });
    expect(await database.prisma.run.count()).toBe(countBefore);
    expect(await database.prisma.project.count()).toBe(3);
    expect(await database.prisma.change.count()).toBe(regressionsBefore);
  }, 120_000);

  it("leaves alone a project of the same slug that is not demo data", async () => {
    await database.prisma.project.update({ where: { slug: GRPC_PROJECT }, data: { isDemo: false } });
    await expect(seedDemo(database.prisma, { now: NOW })).rejects.toThrow(NotADemoProjectError);
    await database.prisma.project.update({ where: { slug: GRPC_PROJECT }, data: { isDemo: true } });
  });
});
