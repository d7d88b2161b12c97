import { describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../testing/databases";
import { adminCaller, expectAdminOnly, seedProjectWithToken, useRouterDatabase } from "../../testing/trpc-callers";

describe.each(testDatabaseTargets())("annotation router on $name", ({ target }) => {
  const database = useRouterDatabase(target);

  async function seedRun(projectId: string) {
    const run = await database().prisma.run.create({
      data: { projectId, tool: "k6", format: "k6-summary", startedAt: new Date("2026-11-01T10:00:00Z") },
      select: { id: true },
    });
    return run.id;
  }

  it("annotates a run (text trimmed) and deletes the note; another project's run or note is not found", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "notes");
    const runId = await seedRun(projectId);
    const admin = adminCaller(database().prisma);
    const created = await admin.annotation.create({ project: slug, runId, text: "  deployed v2.3  " });
    expect(created).toMatchObject({ runId, text: "deployed v2.3" });
    expect(created.createdAt).toBeInstanceOf(Date);

    const other = await seedProjectWithToken(database().prisma, "notes-other");
    await expect(admin.annotation.create({ project: other.slug, runId, text: "sneaky" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin.annotation.delete({ project: other.slug, annotationId: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await admin.annotation.delete({ project: slug, annotationId: created.id });
    await expect(admin.annotation.delete({ project: slug, annotationId: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses an empty or too long note with the path", async () => {
    const { slug, projectId } = await seedProjectWithToken(database().prisma, "notes-bad");
    const runId = await seedRun(projectId);
    for (const text of ["   ", "a".repeat(501)]) {
      await expect(adminCaller(database().prisma).annotation.create({ project: slug, runId, text })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        cause: { details: [{ path: "text" }] },
      });
    }
  });

  it("refuses annotating and deleting notes without the mark action (a token that only reads)", async () => {
    const { slug, projectId, uploadToken } = await seedProjectWithToken(database().prisma, "notes-refused", ["read"]);
    const runId = await seedRun(projectId);
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.annotation.create({ project: slug, runId, text: "x" }));
    const kept = await adminCaller(database().prisma).annotation.create({ project: slug, runId, text: "keep me" });
    await expectAdminOnly(database().prisma, uploadToken, (caller) => caller.annotation.delete({ project: slug, annotationId: kept.id }));
    expect((await database().prisma.annotation.findMany({ where: { projectId } })).map((note) => note.text)).toEqual(["keep me"]);
  });
});
