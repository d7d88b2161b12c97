import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { applyPendingMigrations, readMigrationList } from "./migrations";

/**
 * A new embedded database starts from a template: an empty cluster with every migration applied, as
 * PGlite's data folder tarball (`dumpDataDir`). PGlite makes a cluster by running initdb in WebAssembly
 * (5 s and 7 s of CPU here) and the schema engine then applies the migrations (2 s more); loading the
 * template takes under a second. `npm start` on a new data folder (apply.ts), the demo seed, a restore
 * into a new folder and every test's embedded database start from it.
 *
 * The template is made the first time it is needed and kept in node_modules/.cache/benchtrack (the
 * checkout's own, like other tools' caches; `npm ci` clears it), one file per PGlite version, schema
 * engine version and set of migrations (their names and SQL), so a new or edited migration makes a new
 * one. It holds the schema and nothing else.
 */
const NODE_MODULES = path.resolve(import.meta.dirname, "../../node_modules");
export const TEMPLATE_DIR = path.join(NODE_MODULES, ".cache", "benchtrack");

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
    .update(JSON.stringify({ pglite: versionOf("@electric-sql/pglite"), engine: versionOf("@prisma/schema-engine-wasm"), migrations: list.migrationDirectories }))
    .digest("hex")
    .slice(0, 16);
  const file = path.join(TEMPLATE_DIR, `migrated-${key}.tar`);
  const kept = await readFile(file).catch(() => null);
  if (kept) return { blob: new Blob([new Uint8Array(kept)]), migrations };

  const pglite = new PGlite();
  try {
    await applyPendingMigrations(new PrismaPGlite(pglite));
    const made = await pglite.dumpDataDir("none");
    // Written whole under another name, then renamed: a process reading it never sees half a file. A
    // cache that cannot be written (a read-only checkout) only costs the next new database the time.
    await mkdir(TEMPLATE_DIR, { recursive: true })
      .then(async () => {
        const partial = `${file}.${process.pid}.${randomUUID().slice(0, 8)}`;
        await writeFile(partial, new Uint8Array(await made.arrayBuffer()));
        await rename(partial, file);
      })
      .catch(() => undefined);
    return { blob: made, migrations };
  } finally {
    await pglite.close();
  }
}

/** An installed package's version, from the checkout's node_modules. */
function versionOf(name: string): string {
  return (JSON.parse(readFileSync(path.join(NODE_MODULES, name, "package.json"), "utf8")) as { version: string }).version;
}
