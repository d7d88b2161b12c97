import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../testing/databases";
import { adminCaller, callerWith, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("regression router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  /** Four runs on main labelled nightly, and a p95 regression opened at the third. */
  async function seedRegression(prefix: string) {
    const seeded = await seedProjectWithToken(database().prisma, prefix);
    const runIds: string[] = [];
    for (let index = 0; index < 4; index++) {
      const run = await database().prisma.run.create({
        data: {
          projectId: seeded.projectId,
          tool: "k6",
          format: "k6-summary",
          label: "nightly",
          gitBranch: "main",
          startedAt: new Date(Date.UTC(2026, 10, 1 + index)),
        },
        select: { id: true },
      });
      runIds.push(run.id);
    }
    const regression = await database().prisma.regression.create({
      data: { projectId: seeded.projectId, metric: "p95", kind: "regression", firstRunId: runIds[2]!, beforeValue: 10, afterValue: 15, deltaPct: 50, pValue: 0.001 },
      select: { id: true },
    });
    return { ...seeded, runIds, regressionId: regression.id };
  }

  it("lists the inbox with its links, to anyone", async () => {
    const { slug, runIds, regressionId } = await seedRegression("inbox");
    const inbox = await callerWith(database().prisma, null).regression.inbox({ project: slug });
    expect(inbox.status).toBe("open");
    expect(inbox.improvements).toEqual([]);
    expect(inbox.regressions).toHaveLength(1);
    expect(inbox.regressions[0]).toMatchObject({
      id: regressionId,
      metric: "p95",
      links: {
        comparePath: `/projects/${slug}/compare?base=${runIds[1]},${runIds[0]}&head=${runIds[2]},${runIds[3]}`,
        trendPath: `/projects/${slug}/endpoints/_all?cp=${runIds[2]}&lines=p95`,
      },
    });
    await expect(callerWith(database().prisma, null).regression.inbox({ project: "no-such-project" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("acknowledges, then reopens, as the admin; the inbox's status filter follows", async () => {
    const { slug, regressionId } = await seedRegression("triage");
    const admin = adminCaller(database().prisma);
    expect(await admin.regression.setStatus({ project: slug, id: regressionId, status: "acknowledged", by: "ana" })).toMatchObject({
      status: "acknowledged",
      statusChangedBy: "ana",
    });
    expect((await admin.regression.inbox({ project: slug })).regressions).toEqual([]);
    expect((await admin.regression.inbox({ project: slug, status: "acknowledged" })).regressions.map((row) => row.id)).toEqual([regressionId]);
    await admin.regression.setStatus({ project: slug, id: regressionId, status: "open" });
    expect((await admin.regression.inbox({ project: slug, status: "all" })).regressions[0]?.status).toBe("open");
  });

  it("refuses a status change without the admin token, and another project's regression is not found", async () => {
    const { slug, uploadToken, regressionId } = await seedRegression("triage-refused");
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.regression.setStatus({ project: slug, id: regressionId, status: "dismissed" }));
    const other = await seedProjectWithToken(database().prisma, "triage-other");
    await expect(
      adminCaller(database().prisma).regression.setStatus({ project: other.slug, id: regressionId, status: "dismissed" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await database().prisma.regression.findUniqueOrThrow({ where: { id: regressionId } })).status).toBe("open");
  });
});
