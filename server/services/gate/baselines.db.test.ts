import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { readFixture } from "../../domain/parsers/fixtures/read-fixture";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { chooseBaseline } from "./baselines";
import { findGateHead } from "./run-gate";

/**
 * The baseline's words on a capacity sweep: the real k6 summary uploaded at 10, 20, 30 and 40 VUs
 * (`config.vus`, as CI gives the level), one run a day. A run is compared with the runs of its own load
 * only, and the text must say how many those are and how many of the other loads were not used, without
 * reading as one number for both ("the 4 runs …; 4 left out").
 */
describe.each(testDatabaseTargets())("the baseline of a capacity sweep, in words, on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  async function sweep(slug: string, vus: readonly number[], firstDay = 1) {
    const ids: string[] = [];
    for (const [i, level] of vus.entries()) {
      const outcome = await ingestTestRun(database.prisma, slug, readFixture("k6/baseline/round1/summary.json"), {
        metadata: { label: "capacity", branch: "main", started_at: `2026-11-${String(firstDay + i).padStart(2, "0")}T09:00:00Z`, config: { vus: level } },
      });
      ids.push(outcome.run.id);
    }
    return ids;
  }

  async function howOf(slug: string, runId: string) {
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true, defaultBranch: true } });
    return chooseBaseline(database.prisma, project, await findGateHead(database.prisma, project.id, runId));
  }

  it("counts the runs of this load it is compared with, and apart, the runs of other loads it is not", async () => {
    const slug = uniqueSlug("sweep-how");
    const ids = await sweep(slug, [10, 20, 30, 40, 10, 20, 30, 40, 10]);
    const baseline = await howOf(slug, ids.at(-1)!);
    expect(baseline.runIds).toEqual([ids[4], ids[0]]);
    expect(baseline.how).toBe(
      "the 2 k6 runs labelled capacity on main at this run's load (vus 10); not the 6 runs at other loads (vus 20, 30, 40), which measure something else",
    );
    expect(baseline.how).not.toMatch(/left out/);
  });

  it("leaves out of both counts what came before the last change marker", async () => {
    const slug = uniqueSlug("sweep-marker");
    const ids = await sweep(slug, [10, 20, 30, 40, 20, 10]);
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    await database.prisma.annotation.create({
      data: { projectId: project.id, kind: "change", text: "new host", at: new Date("2026-11-04T12:00:00Z") },
    });
    const baseline = await howOf(slug, ids.at(-1)!);
    expect(baseline.runIds).toEqual([]);
    // Since the marker: one run at another load (vus 20); the three before it are in neither count.
    expect(baseline.how).toBe(
      'no earlier k6 runs labelled capacity on main at this run\'s load (vus 10) since the change marker of 2026-11-04 ("new host"); not the run at another load (vus 20), which measures something else',
    );
  });

  it("says nothing of loads when every run is driven alike", async () => {
    const slug = uniqueSlug("sweep-alike");
    const ids = await sweep(slug, [10, 10, 10]);
    expect((await howOf(slug, ids.at(-1)!)).how).toBe("the 2 k6 runs labelled capacity on main");
  });
});
