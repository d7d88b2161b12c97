import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { FRESHNESS_RUNS, checkProjectFreshness } from "./project-freshness";

const DAY = 86_400_000;
const NOW = new Date("2025-11-20T12:00:00Z");

describe.each(testDatabaseTargets())("checkProjectFreshness on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  const seedProject = async (daysAgo: number[]) => {
    const db = database.prisma;
    const project = await db.project.create({
      data: { slug: uniqueSlug("fresh"), name: "Fresh" },
      select: { id: true },
    });
    await db.run.createMany({
      data: daysAgo.map((days) => ({
        projectId: project.id,
        tool: "k6",
        format: "k6-summary",
        startedAt: new Date(NOW.getTime() - days * DAY),
      })),
    });
    return project.id;
  };

  it("no runs", async () => {
    expect((await checkProjectFreshness(database.prisma, await seedProject([]), NOW)).status).toBe("no-runs");
  });

  it("reads the newest runs only: a daily project that stopped 4 days ago is missing data", async () => {
    // 80 daily runs, newest 4 days ago; older runs beyond FRESHNESS_RUNS are not read (nor needed).
    const projectId = await seedProject(Array.from({ length: 80 }, (_, index) => 4 + index));
    const freshness = await checkProjectFreshness(database.prisma, projectId, NOW);
    expect(freshness).toMatchObject({
      status: "missing",
      cadence: "daily",
      medianGapHours: 24,
      lastRunAt: new Date(NOW.getTime() - 4 * DAY),
    });
    expect(freshness.message).toBe("No run for 4 days; this project usually uploads daily.");
    expect(FRESHNESS_RUNS).toBeLessThan(80);
  });

  it("a daily project that ran yesterday is fresh", async () => {
    const projectId = await seedProject(Array.from({ length: 10 }, (_, index) => 1 + index));
    expect(await checkProjectFreshness(database.prisma, projectId, NOW)).toMatchObject({
      status: "fresh",
      cadence: "daily",
    });
  });
});
