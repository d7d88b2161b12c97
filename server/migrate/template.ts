import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { isProcessAlive } from "../db";
import { keepCluster, openEmptyPGlite, readCachedCluster, readOnce, readPackageVersion } from "./cluster-cache";
import { applyPendingMigrations, readMigrationList } from "./migrations";

/**
 * A new embedded database starts from a template: an empty cluster with every migration applied, as
 * PGlite's data folder tarball (`dumpDataDir`). Making a cluster takes PGlite's initdb (cluster-cache.ts)
 * and the schema engine then applies the migrations (2 s more); loading the template takes about a
 * second. `npm start` on a new data folder (apply.ts), the demo seed, a restore into a new folder and
 * every test's embedded database start from it.
 *
 * It is made the first time it is needed and kept with the empty cluster (cluster-cache.ts), one file
 * per version of PGlite, its Prisma adapter and the schema engine and set of migrations (their names
 * and SQL), so a new or edited migration makes a new one (and the older one is removed). It holds the
 * schema and what the migrations insert, which is nothing today: a migration that made a secret would
 * have to make it at the database's first start instead, or every database would share it.
 */
/** The template (made, or read from the cache), and the names of the migrations it holds. */
export const readMigratedTemplate: () => Promise<{ blob: Blob; migrations: string[] }> = readOnce(readOrMakeTemplate);

/** The folder of an embedded data folder's cluster (server/db.ts opens it there). */
const clusterDirOf = (dataDir: string) => path.join(dataDir, "pglite");

/** Whether the embedded data folder holds no database yet. */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(path.join(clusterDirOf(dataDir), "PG_VERSION"));
}

/** A load's folder beside the cluster's: this, the loading process's pid, a random part. */
const LOADING = "pglite.loading-";

/**
 * Makes `dataDir`'s database from the template: loaded into a folder beside it, closed, then renamed
 * into place, so a process killed while loading leaves no half a cluster that a next start would take
 * for a database. Returns the template's migrations, or null when another process made the folder's
 * database meanwhile (its rename came first).
 */
export async function loadTemplateInto(dataDir: string): Promise<string[] | null> {
  const { blob, migrations } = await readMigratedTemplate();
  await removeAbandonedLoads(dataDir);
  const staging = path.join(dataDir, `${LOADING}${process.pid}-${randomUUID().slice(0, 8)}`);
  await mkdir(staging, { recursive: true });
  try {
    const pglite = new PGlite(staging, { loadDataDir: blob });
    await pglite.waitReady;
    await pglite.close();
    // An empty cluster folder (made and left by a start that failed before initdb) is replaced; one that
    // holds a database is not (ENOTEMPTY).
    await rmdir(clusterDirOf(dataDir)).catch(() => undefined);
    await rename(staging, clusterDirOf(dataDir));
    return migrations;
  } catch (error) {
    if (!isNewDataDir(dataDir)) return null;
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Load folders of processes no longer alive (killed while loading). */
async function removeAbandonedLoads(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir).catch(() => [])) {
    const pid = name.startsWith(LOADING) ? Number.parseInt(name.slice(LOADING.length), 10) : Number.NaN;
    if (Number.isFinite(pid) && !isProcessAlive(pid)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}

async function readOrMakeTemplate(): Promise<{ blob: Blob; migrations: string[] }> {
  const list = await readMigrationList();
  const migrations = list.migrationDirectories.map((directory) => directory.path);
  const versions = ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/schema-engine-wasm"].map(readPackageVersion);
  const key = createHash("sha256").update(JSON.stringify({ versions, migrations: list.migrationDirectories })).digest("hex").slice(0, 16);
  const file = `migrated-${key}.tar`;
  const kept = await readCachedCluster(file);
  if (kept) return { blob: kept, migrations };

  const pglite = await openEmptyPGlite();
  try {
    await applyPendingMigrations(new PrismaPGlite(pglite));
    const made = await pglite.dumpDataDir("none");
    await keepCluster(file, made, /^migrated-[0-9a-f]{16}\.tar$/);
    return { blob: made, migrations };
  } finally {
    await pglite.close();
  }
}
