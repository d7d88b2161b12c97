import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../testing/databases";
import { adminCaller, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("baseline router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  async function seedRun(projectId: string, label: string | null) {
    const run = await database().prisma.run.create({
      data: { projectId, tool: "k6", format: "k6-summary", label, startedAt: new Date("2026-11-01T10:00:00Z") },
      select: { id: true },
    });
    return run.id;
  }

  it("pins a run as its label's baseline, replaces the pin, and unpins", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "pins");
    const [first, second] = [await seedRun(projectId, "nightly"), await seedRun(projectId, "nightly")];
    const admin = adminCaller(database().prisma);
    expect(await admin.baseline.pin({ project: slug, forLabel: "nightly", runIds: [first] })).toMatchObject({
      forLabel: "nightly",
      runIds: [first],
      baselineLabel: null,
    });
    await admin.baseline.pin({ project: slug, forLabel: "nightly", runIds: [second] });
    const pins = await database().prisma.baselinePin.findMany({ where: { projectId } });
    expect(pins.map((pin) => pin.runIds)).toEqual([[second]]);

    await admin.baseline.unpin({ project: slug, forLabel: "nightly" });
    expect(await database().prisma.baselinePin.count({ where: { projectId } })).toBe(0);
    await expect(admin.baseline.unpin({ project: slug, forLabel: "nightly" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses another project's run and a pin that names neither runs nor a label, with the path", async () => {
    const { slug } = await seedProjectWithToken(database().prisma, "pins-bad");
    const other = await seedProjectWithToken(database().prisma, "pins-other");
    const foreign = await seedRun(other.projectId, "nightly");
    const admin = adminCaller(database().prisma);
    await expect(admin.baseline.pin({ project: slug, forLabel: "nightly", runIds: [foreign] })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { details: [{ path: "runIds", message: "unknown run id" }] },
    });
    await expect(admin.baseline.pin({ project: slug, forLabel: "nightly" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: { details: [{ path: "runIds" }] },
    });
  });

  it("refuses pinning and unpinning without the admin token", async () => {
    const { slug, projectId, uploadToken } = await seedProjectWithToken(database().prisma, "pins-refused");
    const run = await seedRun(projectId, null);
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.baseline.pin({ project: slug, forLabel: null, runIds: [run] }));
    expect(await database().prisma.baselinePin.count({ where: { projectId } })).toBe(0);
    await adminCaller(database().prisma).baseline.pin({ project: slug, forLabel: null, runIds: [run] });
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.baseline.unpin({ project: slug, forLabel: null }));
    expect(await database().prisma.baselinePin.count({ where: { projectId } })).toBe(1);
  });
});
