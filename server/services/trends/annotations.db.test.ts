import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { createAnnotation, deleteAnnotation, listAnnotationsForRuns, listRunAnnotations } from "./annotations";
import type { Principal } from "../access/auth";

const ADMIN: Principal = { kind: "admin" };

async function seedRuns(db: PrismaClient, count: number) {
  const project = await db.project.create({ data: { slug: uniqueSlug("notes"), name: "Notes" }, select: { id: true, slug: true } });
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
  return { projectId: project.id, slug: project.slug, runIds };
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
    const { projectId, slug, runIds } = await seedRuns(db, 3);
    const [a, b, c] = runIds as [string, string, string];
    await createAnnotation(db, ADMIN, slug, a, { text: "deployed v2.3" });
    await createAnnotation(db, ADMIN, slug, b, { text: "GC tuned" });
    await createAnnotation(db, ADMIN, slug, a, { text: "rolled back" });
    const other = await seedRuns(db, 1);
    await createAnnotation(db, ADMIN, other.slug, other.runIds[0]!, { text: "another project" });

    const byRun = await listAnnotationsForRuns(db, projectId, [a, b, c, a, other.runIds[0]!]);
    expect([...byRun.keys()].sort()).toEqual([a, b].sort());
    expect(byRun.get(a)?.map((annotation) => annotation.text)).toEqual(["deployed v2.3", "rolled back"]);
    expect(byRun.get(a)?.[0]).toEqual({
      id: expect.any(String),
      at: expect.any(Date),
      kind: "note",
      text: "deployed v2.3",
      createdAt: expect.any(Date),
    });
    expect(byRun.has(c)).toBe(false);
    expect((await listAnnotationsForRuns(db, projectId, [])).size).toBe(0);
  });

  it("creates, lists and deletes within one project only", async () => {
    const { slug, runIds } = await seedRuns(db, 1);
    const other = await seedRuns(db, 1);
    const runId = runIds[0]!;
    const notFound = { code: "not_found" };
    await expect(createAnnotation(db, ADMIN, other.slug, runId, { text: "wrong project" })).rejects.toMatchObject(notFound);
    await expect(listRunAnnotations(db, other.slug, runId)).rejects.toMatchObject(notFound);
    const created = await createAnnotation(db, ADMIN, slug, runId, { text: "note" });
    expect(created).toMatchObject({ runId, text: "note" });
    expect(await listRunAnnotations(db, slug, runId)).toEqual([created]);
    await expect(deleteAnnotation(db, ADMIN, other.slug, created.id)).rejects.toMatchObject(notFound);
    await expect(deleteAnnotation(db, ADMIN, slug, created.id)).resolves.toBeUndefined();
    expect(await listRunAnnotations(db, slug, runId)).toEqual([]);
    // Only the admin annotates; a project token may only upload.
    const uploader: Principal = { kind: "project-token", tokenId: "t", projectId: "p", name: "ci", scopes: ["upload"] };
    await expect(createAnnotation(db, uploader, slug, runId, { text: "x" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(deleteAnnotation(db, { kind: "anonymous" }, slug, created.id)).rejects.toMatchObject({ code: "unauthorized" });
  });
});
