import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../testing/databases";
import { adminCaller, callerWith, expectAdminOnly, createNightlyRuns, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("incident router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  /**
   * Eight nightly runs on main; incident #1 opened at the fourth with two regressions (p95 +50%, p50
   * +20%), the p95 one come back at the seventh; and an improvement at the sixth, which opens no incident.
   */
  async function seedIncident(prefix: string) {
    const seeded = await seedProjectWithToken(database().prisma, prefix);
    const runIds = await createNightlyRuns(database().prisma, seeded.projectId, 8, { rounds: true });
    const incident = await database().prisma.incident.create({
      data: { projectId: seeded.projectId, number: 1, firstRunId: runIds[3]!, detectorVersion: 2, events: { create: { by: "detector", toState: "open" } } },
      select: { id: true },
    });
    const regression = (metric: string, beforeValue: number, afterValue: number, returnRunId: string | null) =>
      database().prisma.change.create({
        data: {
          projectId: seeded.projectId,
          metric,
          kind: "regression",
          firstRunId: runIds[3]!,
          beforeValue,
          afterValue,
          deltaPct: (100 * (afterValue - beforeValue)) / beforeValue,
          pValue: 0.001,
          incidentId: incident.id,
          returnRunId,
        },
        select: { id: true },
      });
    await regression("p50", 10, 12, null);
    await regression("p95", 20, 30, runIds[6]!);
    await database().prisma.change.create({
      data: { projectId: seeded.projectId, metric: "p99", kind: "improvement", firstRunId: runIds[5]!, beforeValue: 40, afterValue: 30, deltaPct: -25, pValue: 0.001 },
    });
    return { ...seeded, runIds };
  }

  it("lists the inbox with counts, each incident's regressions largest first and the run each series came back at, to anyone", async () => {
    const { slug, runIds } = await seedIncident("incident-inbox");
    const reader = callerWith(database().prisma, null);
    const inbox = await reader.incident.inbox({ project: slug });
    expect(inbox.counts).toEqual({ open: 1, investigating: 0, fixed: 0, backed_out: 0, accepted: 0, invalid: 0 });
    expect(inbox.incidents).toHaveLength(1);
    const [incident] = inbox.incidents;
    expect(incident!.regressions.map((row) => row.metric)).toEqual(["p95", "p50"]);
    expect(incident!.returned).toEqual({ count: 1, of: 2 });
    expect(incident!.regressions[0]!.returnRun).toMatchObject({ id: runIds[6], label: "nightly", round: 7 });
    expect(incident!.regressions[1]!.returnRun).toBeNull();

    const { incident: page } = await reader.incident.get({ project: slug, number: 1 });
    expect(page.events).toEqual([expect.objectContaining({ by: "detector", fromState: null, toState: "open" })]);
    await expect(reader.incident.get({ project: slug, number: 2 })).rejects.toMatchObject({ code: "NOT_FOUND" });

    // Improvements open no incident; the inbox lists them apart.
    const improvements = await reader.change.improvements({ project: slug });
    expect(improvements.map((row) => [row.kind, row.metric])).toEqual([["improvement", "p99"]]);
    expect(improvements[0]!.links.trendPath).toContain(`cp=${runIds[5]}`);
  });

  it("changes incidents in bulk as the admin, and refuses anyone else", async () => {
    const { slug, uploadToken } = await seedIncident("incident-update");
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.incident.update({ project: slug, numbers: [1], state: "invalid" }));
    const admin = adminCaller(database().prisma);
    expect(await admin.incident.update({ project: slug, numbers: [1], state: "investigating" })).toEqual({
      updated: [{ number: 1, from: "open", to: "investigating" }],
    });
    const { incident } = await admin.incident.get({ project: slug, number: 1 });
    expect(incident).toMatchObject({ state: "investigating", stateChangedBy: "admin token" });
    expect((await admin.incident.inbox({ project: slug, state: "investigating" })).incidents.map((row) => row.number)).toEqual([1]);
  });
});
