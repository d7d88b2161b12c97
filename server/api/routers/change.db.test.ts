import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../testing/databases";
import { callerWith, createNightlyRuns, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("regression router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  /** Four runs on main labelled nightly, and a p95 change recorded at the third. */
  async function seedRegression(prefix: string, kind: "regression" | "improvement" = "regression") {
    const seeded = await seedProjectWithToken(database().prisma, prefix);
    const runIds = await createNightlyRuns(database().prisma, seeded.projectId, 4);
    const regression = await database().prisma.change.create({
      data: { projectId: seeded.projectId, metric: "p95", kind, firstRunId: runIds[2]!, beforeValue: 10, afterValue: 15, deltaPct: 50, pValue: 0.001 },
      select: { id: true },
    });
    return { ...seeded, runIds, regressionId: regression.id };
  }

  it("lists improvements (they open no incident) with their links, to anyone", async () => {
    const { slug, runIds, regressionId } = await seedRegression("improvements", "improvement");
    const improvements = await callerWith(database().prisma, null).change.improvements({ project: slug });
    expect(improvements).toHaveLength(1);
    expect(improvements[0]).toMatchObject({
      id: regressionId,
      kind: "improvement",
      metric: "p95",
      links: {
        comparePath: `/projects/${slug}/compare?base=${runIds[1]},${runIds[0]}&head=${runIds[2]},${runIds[3]}`,
        trendPath: `/projects/${slug}/endpoints/_all?cp=${runIds[2]}&lines=p95`,
      },
    });
    await expect(callerWith(database().prisma, null).change.improvements({ project: "no-such-project" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
