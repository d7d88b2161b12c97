import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { createAnnotation, deleteAnnotation, listAnnotationsForRuns, listRunAnnotations } from "./annotations";

async function seedRuns(db: PrismaClient, count: number) {
  const project = await db.project.create({ data: { slug: uniqueSlug("notes"), name: "Notes" }, select: { id: true } });
  const runIds: string[] = [];
  for (let day = 0; day < count; day++) {
    const run = await db.run.create({
      data: {
        projectId: project.id,
        tool: "k6",
        format: "k6-summary",
        startedAt: new Date(Date.UTC(2025, 10, day + 1)),
      },
      select: { id: true },
    });
    runIds.push(run.id);
  }
  return { projectId: project.id, runIds };
}

describe.each(testDatabaseTargets())("annotations on $name", ({ target }) => {
  let database: Database;
  let db: PrismaClient;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    db = database.prisma;
  });

  afterAll(async () => {
    await database.close();
  });

  it("listAnnotationsForRuns groups the annotations of many runs by run, oldest first", async () => {
    const { projectId, runIds } = await seedRuns(db, 3);
    const [a, b, c] = runIds as [string, string, string];
    await createAnnotation(db, projectId, a, "deployed v2.3");
    await createAnnotation(db, projectId, b, "GC tuned");
    await createAnnotation(db, projectId, a, "rolled back");
    const other = await seedRuns(db, 1);
    await createAnnotation(db, other.projectId, other.runIds[0]!, "another project");

    const byRun = await listAnnotationsForRuns(db, projectId, [a, b, c, a, other.runIds[0]!]);
    expect([...byRun.keys()].sort()).toEqual([a, b].sort());
    expect(byRun.get(a)?.map((annotation) => annotation.text)).toEqual(["deployed v2.3", "rolled back"]);
    expect(byRun.get(a)?.[0]).toEqual({ id: expect.any(String), text: "deployed v2.3", createdAt: expect.any(Date) });
    expect(byRun.has(c)).toBe(false);
    expect((await listAnnotationsForRuns(db, projectId, [])).size).toBe(0);
  });

  it("creates, lists and deletes within one project only", async () => {
    const { projectId, runIds } = await seedRuns(db, 1);
    const other = await seedRuns(db, 1);
    const runId = runIds[0]!;
    expect(await createAnnotation(db, other.projectId, runId, "wrong project")).toBeNull();
    expect(await listRunAnnotations(db, other.projectId, runId)).toBeNull();
    const created = await createAnnotation(db, projectId, runId, "note");
    expect(created).toMatchObject({ runId, text: "note" });
    expect(await listRunAnnotations(db, projectId, runId)).toEqual([created]);
    expect(await deleteAnnotation(db, other.projectId, created!.id)).toBe(false);
    expect(await deleteAnnotation(db, projectId, created!.id)).toBe(true);
    expect(await listRunAnnotations(db, projectId, runId)).toEqual([]);
  });
});
