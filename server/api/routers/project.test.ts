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

  it("lists projects with their run counts", async () => {
    const slug = uniqueSlug("listing");
    const project = await database.prisma.project.create({ data: { slug, name: "Listings", description: "gRPC" } });
    await database.prisma.run.create({
      data: { projectId: project.id, tool: "ghz", format: "ghz", startedAt: new Date("2026-11-22T10:00:00Z") },
    });

    const projects = await createCaller({ db: database.prisma }).project.list();

    expect(projects.find((listed) => listed.slug === slug)).toMatchObject({
      name: "Listings",
      description: "gRPC",
      runCount: 1,
      isDemo: false,
    });
  });
});
