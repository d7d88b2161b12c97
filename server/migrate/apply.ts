import { describeTarget, openDatabase } from "../db";
import type { DatabaseTarget } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { applyPendingMigrations, readMigrationList } from "./migrations";

/**
 * Opens `target`, applies pending migrations, closes it; returns the migrations applied now.
 * When every migration on disk is already recorded, the schema engine (a large WebAssembly module,
 * seconds to start) is not started at all: a restart of `npm start` stays quick.
 */
export async function migrateDatabase(target: DatabaseTarget): Promise<string[]> {
  const database = await openDatabase(target);
  try {
    const onDisk = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);
    const applied = await readAppliedMigrations(database.prisma);
    if (onDisk.every((name) => applied.has(name))) return [];
    // Another process migrating meanwhile holds the lock: applyPendingMigrations waits for it again,
    // and then applies only what is still pending.
    return await applyPendingMigrations(database.adapterFactory);
  } catch (error) {
    throw new Error(`Migrating ${describeTarget(target)} failed: ${String(error)}`, { cause: error });
  } finally {
    await database.close();
  }
}

/** Names of the migrations recorded as applied in Prisma's `_prisma_migrations` table. */
async function readAppliedMigrations(prisma: PrismaClient): Promise<Set<string>> {
  const [table] = await prisma.$queryRaw<{ name: string | null }[]>`
    SELECT to_regclass('_prisma_migrations')::text AS name`;
  if (!table?.name) return new Set();
  const rows = await prisma.$queryRaw<{ migration_name: string }[]>`
    SELECT migration_name FROM _prisma_migrations
    WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  return new Set(rows.map((row) => row.migration_name));
}
