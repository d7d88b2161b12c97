import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * What the database has applied and what this version ships, without the schema engine: the readiness
 * probe (services/platform/readiness.ts) compares them on every call, and `npm start` before migrating.
 */

/**
 * The folder of the migrations this version ships: beside this file in the source tree, else under the
 * working directory (a bundled server, whose chunks do not sit beside prisma/: `npm start` runs in the
 * project's folder). Null when neither holds one.
 */
export function shippedMigrationsDir(): string | null {
  // A bundled chunk has no import.meta.dirname (undefined under next start): the working directory then.
  const here = typeof import.meta.dirname === "string" ? [path.resolve(import.meta.dirname, "../../prisma/migrations")] : [];
  const candidates = [...here, path.resolve(process.cwd(), "prisma/migrations")];
  return candidates.find((dir) => existsSync(path.join(dir, "migration_lock.toml"))) ?? null;
}

/** The names of the migrations in `dir` (folders, oldest first). */
export async function listMigrationsOnDisk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Names of the migrations recorded as applied in Prisma's `_prisma_migrations` table (none without it). */
export async function readAppliedMigrations(prisma: Pick<PrismaClient, "$queryRaw">): Promise<Set<string>> {
  const [table] = await prisma.$queryRaw<{ name: string | null }[]>`
    SELECT to_regclass('_prisma_migrations')::text AS name`;
  if (!table?.name) return new Set();
  const rows = await prisma.$queryRaw<{ migration_name: string }[]>`
    SELECT migration_name FROM _prisma_migrations
    WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  return new Set(rows.map((row) => row.migration_name));
}
