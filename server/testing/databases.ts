import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { openDatabase } from "../db";
import type { Database, DatabaseTarget } from "../db";
import { migrateDatabase } from "../migrate/apply";
import { applyPendingMigrations, readMigrationList } from "../migrate/migrations";

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
 * snapshot (`migratedSnapshot`).
 */
export async function openMigratedDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "memory") return openDatabase(target, { initialData: await migratedSnapshot() });
  await migrateDatabase(target);
  // Test files share one PostgreSQL database and run at once: each gets a job queue of its own, so one
  // file's workers never take another's jobs.
  return openDatabase(target, { jobSchema: `pgboss_test_${randomUUID().slice(0, 8)}` });
}

/** A slug no other test uses, so tests sharing a database never see each other's data. */
export function uniqueSlug(prefix = "test"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

let snapshot: Promise<Blob> | undefined;

/**
 * A new embedded database with every migration applied, as PGlite's data folder tarball. A test file's
 * embedded database starts from it in under a second, instead of creating a cluster and running the
 * schema engine (several seconds each time). It is made once per set of migrations and PGlite version
 * and kept in the temp folder, so the test files of a run (each in a process of its own) and the next
 * runs share it. It is what `applyPendingMigrations` makes of prisma/migrations; server/migrate's
 * tests check the migrations themselves, each on a database of its own.
 */
export function migratedSnapshot(): Promise<Blob> {
  snapshot ??= readOrMakeSnapshot();
  return snapshot;
}

async function readOrMakeSnapshot(): Promise<Blob> {
  const pgliteEntry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pgliteVersion = (JSON.parse(await readFile(path.join(path.dirname(pgliteEntry), "../package.json"), "utf8")) as { version: string }).version;
  const { migrationDirectories } = await readMigrationList();
  const key = createHash("sha256")
    .update(JSON.stringify({ pgliteVersion, migrationDirectories }))
    .digest("hex")
    .slice(0, 16);
  const folder = path.join(os.tmpdir(), "benchtrack-test-snapshots");
  const file = path.join(folder, `migrated-${key}.tar`);
  const kept = await readFile(file).catch(() => null);
  if (kept) return new Blob([new Uint8Array(kept)]);

  const pglite = new PGlite();
  try {
    await applyPendingMigrations(new PrismaPGlite(pglite));
    const made = await pglite.dumpDataDir("none");
    // Written whole under another name, then renamed: a test file reading it never sees half a file.
    await mkdir(folder, { recursive: true });
    const partial = `${file}.${process.pid}.${randomUUID().slice(0, 8)}`;
    await writeFile(partial, new Uint8Array(await made.arrayBuffer()));
    await rename(partial, file);
    return made;
  } finally {
    await pglite.close();
  }
}
