import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { createCaller } from "../root";

describe.each(testDatabaseTargets())("project router on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("says whether a project has only benchmark runs (its Capacity tab is left out then)", async () => {
    const create = (slug: string) => database.prisma.project.create({ data: { slug, name: slug } });
    const run = (projectId: string, protocol: string | null) =>
      database.prisma.run.create({ data: { projectId, tool: "go", format: "go-bench-text", protocol, startedAt: new Date("2026-11-22T10:00:00Z") } });
    const benchmarks = await create(uniqueSlug("benchmarks"));
    await run(benchmarks.id, "benchmark");
    const mixed = await create(uniqueSlug("mixed"));
    await run(mixed.id, "benchmark");
    await run(mixed.id, null);
    const empty = await create(uniqueSlug("empty"));

    const caller = createCaller({ db: database.prisma });
    expect((await caller.project.get({ project: benchmarks.slug })).hasOnlyBenchmarks).toBe(true);
    expect((await caller.project.get({ project: mixed.slug })).hasOnlyBenchmarks).toBe(false);
    expect((await caller.project.get({ project: empty.slug })).hasOnlyBenchmarks).toBe(false);
  });

  it("lists projects with their run counts", async () => {
    const slug = uniqueSlug("listing");
    const project = await database.prisma.project.create({ data: { slug, name: "Listings", description: "gRPC" } });
    await database.prisma.run.create({
      data: { projectId: project.id, tool: "ghz", format: "ghz", startedAt: new Date("2026-11-22T10:00:00Z") },
    });

    const { projects } = await createCaller({ db: database.prisma }).project.list();

    expect(projects.find((listed) => listed.slug === slug)).toMatchObject({
      name: "Listings",
      description: "gRPC",
      runCount: 1,
      isDemo: false,
    });
  });

  it("gives each project its last run and an aggregate p95 sparkline of its last 30 runs, oldest first", async () => {
    const slug = uniqueSlug("cards");
    const idle = uniqueSlug("idle");
    const project = await database.prisma.project.create({ data: { slug, name: "Cards", isDemo: true } });
    await database.prisma.project.create({ data: { slug: idle, name: "Idle" } });
    const start = Date.UTC(2026, 10, 1);
    for (let index = 0; index < 32; index++) {
      const startedAt = new Date(start + index * 60_000);
      const run = await database.prisma.run.create({
        data: { projectId: project.id, tool: "k6", format: "k6-summary", startedAt, label: `l${index}`, gitBranch: "main" },
      });
      // The 31st run has no aggregate: its point is a gap, not a zero.
      if (index !== 30) {
        await database.prisma.result.create({ data: { runId: run.id, projectId: project.id, startedAt, p95Ms: index } });
      }
    }

    const { projects, generatedAt } = await createCaller({ db: database.prisma }).project.list();
    expect(generatedAt).toBeInstanceOf(Date);
    const card = projects.find((listed) => listed.slug === slug);
    expect(card).toMatchObject({ runCount: 32, isDemo: true, lastRun: { label: "l31", gitBranch: "main" } });
    expect(card?.lastRun?.startedAt).toEqual(new Date(start + 31 * 60_000));
    expect(card?.sparkline).toHaveLength(30);
    expect(card?.sparkline[0]).toEqual({ x: start + 2 * 60_000, y: 2 });
    expect(card?.sparkline.slice(-2)).toEqual([
      { x: start + 30 * 60_000, y: null },
      { x: start + 31 * 60_000, y: 31 },
    ]);
    expect(projects.find((listed) => listed.slug === idle)).toMatchObject({ runCount: 0, lastRun: null, sparkline: [] });
    // Projects with runs come first, the most recently active first.
    const order = projects.map((listed) => listed.slug);
    expect(order.indexOf(slug)).toBeLessThan(order.indexOf(idle));
  });
});
