import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { SCHEMA_PATH, diffMigrationsAgainstSchema, readMigrationList } from "./migrations";

describe("prisma/migrations", () => {
  it("produce exactly the database schema.prisma describes (run `npm run db:migration -- <name>` if not)", async () => {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    expect(await diffMigrationsAgainstSchema(schema)).toBe("");
  });

  it("notice a model change that has no migration yet", async () => {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const changed = schema.replace("model Project {", "model Project {\n  unmigratedColumn String?");
    expect(await diffMigrationsAgainstSchema(changed)).toMatch(/ALTER TABLE "projects" ADD COLUMN\s+"unmigratedColumn"/);
  });

  it("hold no semicolon in a comment: @prisma/adapter-pg runs a script split at every one, so PostgreSQL would get half a statement", async () => {
    const { migrationDirectories } = await readMigrationList();
    const offending = migrationDirectories.flatMap((directory) => {
      return directory.migrationFile.content.value.split("\n").flatMap((line, index) => (/--.*;/.test(line) ? [`${directory.path}/migration.sql:${index + 1}`] : []));
    });
    expect(offending).toEqual([]);
  });
});
