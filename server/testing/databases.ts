import { randomUUID } from "node:crypto";
import { openDatabase } from "../db";
import type { Database, DatabaseTarget } from "../db";
import { migrateDatabase } from "../migrate/apply";
import { readMigratedTemplate } from "../migrate/template";

/**
 * The database integration tests run against: PostgreSQL when DATABASE_URL is set, else the embedded
 * database (CI runs the `db` project of vitest.config.ts both ways, so those tests meet both without
 * running twice on the embedded one). Use with `describe.each(testDatabaseTargets())`.
 */
export function testDatabaseTargets(): { name: string; target: DatabaseTarget }[] {
  const url = process.env.DATABASE_URL?.trim();
  return url
    ? [{ name: "PostgreSQL", target: { kind: "postgres", url } }]
    : [{ name: "embedded (PGlite)", target: { kind: "memory" } }];
}

/**
 * Opens the target with every migration applied. An in-memory database starts from the migrated
 * template (server/migrate/template.ts), in under a second.
 */
export async function openMigratedDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "memory") return openDatabase(target, { initialData: (await readMigratedTemplate()).blob });
  await migrateDatabase(target);
  // Test files share one PostgreSQL database and run at once: each gets a job queue of its own, so one
  // file's workers never take another's jobs.
  return openDatabase(target, { jobSchema: `pgboss_test_${randomUUID().slice(0, 8)}` });
}

/** A slug no other test uses, so tests sharing a database never see each other's data. */
export function uniqueSlug(prefix = "test"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
