import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { findProject, projectBySlugSql } from "./projects";

describe.each(testDatabaseTargets())("projectBySlugSql on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("reads the row findProject reads, every field under its name and type", async () => {
    const db = database.prisma;
    const slug = uniqueSlug("sql-row");
    await db.project.create({
      data: { slug, name: "Row", description: "d", repoUrl: "https://example.com/r", minEffectPct: 7.5, alpha: 0.05, failOn: ["sla"], webhookFormat: "slack", rawRetentionDays: 30 },
    });
    const [row] = await db.$queryRaw<unknown[]>(projectBySlugSql(slug));
    expect(row).toEqual(await findProject(db, slug));
    expect(await db.$queryRaw<unknown[]>(projectBySlugSql(uniqueSlug("none")))).toEqual([]);
  });
});
