import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { keepCluster, newEmptyPGlite, packageVersion, readCachedCluster } from "./cluster-cache";
import { applyPendingMigrations, readMigrationList } from "./migrations";

/**
 * A new embedded database starts from a template: an empty cluster with every migration applied, as
 * PGlite's data folder tarball (`dumpDataDir`). Making a cluster takes PGlite's initdb (cluster-cache.ts)
 * and the schema engine then applies the migrations (2 s more); loading the template takes about a
 * second. `npm start` on a new data folder (apply.ts), the demo seed, a restore into a new folder and
 * every test's embedded database start from it.
 *
 * It is made the first time it is needed and kept with the empty cluster (cluster-cache.ts), one file
 * per PGlite version, schema engine version and set of migrations (their names and SQL), so a new or
 * edited migration makes a new one. It holds the schema and nothing else.
 */
let template: Promise<{ blob: Blob; migrations: string[] }> | undefined;

/** The template (made, or read from the cache), and the names of the migrations it holds. */
export function migratedTemplate(): Promise<{ blob: Blob; migrations: string[] }> {
  template ??= readOrMakeTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

/** Whether the embedded data folder holds no database yet (a template can be loaded into it). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, "pglite", "PG_VERSION"));
}

async function readOrMakeTemplate(): Promise<{ blob: Blob; migrations: string[] }> {
  const list = await readMigrationList();
  const migrations = list.migrationDirectories.map((directory) => directory.path);
  const key = createHash("sha256")
    .update(JSON.stringify({ pglite: packageVersion("@electric-sql/pglite"), engine: packageVersion("@prisma/schema-engine-wasm"), migrations: list.migrationDirectories }))
    .digest("hex")
    .slice(0, 16);
  const file = `migrated-${key}.tar`;
  const kept = await readCachedCluster(file);
  if (kept) return { blob: kept, migrations };

  const pglite = await newEmptyPGlite();
  try {
    await applyPendingMigrations(new PrismaPGlite(pglite));
    const made = await pglite.dumpDataDir("none");
    await keepCluster(file, made);
    return { blob: made, migrations };
  } finally {
    await pglite.close();
  }
}
