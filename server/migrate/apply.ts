import { describeTarget, openDatabase } from "../db";
import type { DatabaseTarget } from "../db";
import { readAppliedMigrations } from "./applied";
import { applyPendingMigrations, readMigrationList } from "./migrations";
import { isNewDataDir, loadTemplateInto } from "./template";

/**
 * Opens `target`, applies pending migrations, closes it; returns the migrations applied now.
 * When every migration on disk is already recorded, the schema engine (a large WebAssembly module,
 * seconds to start) is not started at all: a restart of `npm start` stays quick. A new embedded folder
 * is loaded from the migrated template instead (template.ts), and all migrations count as applied now.
 */
export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  // A new embedded folder is made from the migrated template (template.ts): seconds of initdb and
  // schema engine saved, and every migration applied with it.
  if (target.kind === "embedded" && isNewDataDir(target.dataDir)) {
    const applied = await loadTemplateInto(target.dataDir).catch((error: unknown) => {
      throw migrationFailed(target, error);
    });
    // null: another process made it meanwhile; it is then migrated as any existing folder.
    if (applied !== null) return applied;
  }
  // Not wrapped: a folder another process holds says so as it is (scripts catch DataDirInUseError).
  const database = await openDatabase(target);
  try {
    const onDisk = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);
    const applied = await readAppliedMigrations(database.prisma);
    if (onDisk.every((name) => applied.has(name))) return [];
    // Another process migrating meanwhile holds the lock: applyPendingMigrations waits for it again,
    // and then applies only what is still pending.
    return await applyPendingMigrations(database.adapterFactory);
  } catch (error) {
    throw migrationFailed(target, error);
  } finally {
    await database.close();
  }
}

const migrationFailed = (target: DatabaseTarget, error: unknown) =>
  new Error(`Migrating ${describeTarget(target)} failed: ${String(error)}`, { cause: error });
