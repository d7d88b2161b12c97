import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * PGlite makes a cluster by running initdb in WebAssembly: 5 s and 7 s of CPU on a 2-core machine, for
 * every new embedded database. Clusters are therefore made once and kept as PGlite data folder tarballs
 * (`dumpDataDir`) in node_modules/.cache/benchtrack (the checkout's own, as other tools keep their
 * caches; `npm ci` clears it), and a new database loads one in about a second: an empty cluster here
 * (scratch databases: the schema diff, data migrations' tests), a migrated one in template.ts.
 */
const NODE_MODULES = path.resolve(import.meta.dirname, "../../node_modules");
export const CLUSTER_CACHE_DIR = path.join(NODE_MODULES, ".cache", "benchtrack");

/** The cached tarball named `file`, or null. */
export async function readCachedCluster(file: string): Promise<Blob | null> {
  const kept = await readFile(path.join(CLUSTER_CACHE_DIR, file)).catch(() => null);
  return kept ? new Blob([new Uint8Array(kept)]) : null;
}

/**
 * Keeps `cluster` as `file`: written whole under another name, then renamed, so a process reading it
 * never sees half a file. A cache that cannot be written (a read-only checkout) only costs the next new
 * database the time.
 */
export async function keepCluster(file: string, cluster: Blob): Promise<void> {
  try {
    await mkdir(CLUSTER_CACHE_DIR, { recursive: true });
    const partial = path.join(CLUSTER_CACHE_DIR, `${file}.${process.pid}.${randomUUID().slice(0, 8)}`);
    await writeFile(partial, new Uint8Array(await cluster.arrayBuffer()));
    await rename(partial, path.join(CLUSTER_CACHE_DIR, file));
  } catch {
    // not kept
  }
}

/** An installed package's version, from the checkout's node_modules. */
export function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(NODE_MODULES, name, "package.json"), "utf8")) as { version: string }).version;
}

let emptyCluster: Promise<Blob> | undefined;

/** A new in-memory PGlite on an empty cluster (initdb's), loaded from the cache; the cluster is made and kept the first time. */
export async function newEmptyPGlite(): Promise<PGlite> {
  emptyCluster ??= readOrMakeEmptyCluster().catch((error: unknown) => {
    emptyCluster = undefined;
    throw error;
  });
  return new PGlite({ loadDataDir: await emptyCluster });
}

async function readOrMakeEmptyCluster(): Promise<Blob> {
  const file = `empty-${packageVersion("@electric-sql/pglite")}.tar`;
  const kept = await readCachedCluster(file);
  if (kept) return kept;
  const pglite = new PGlite();
  try {
    // dumpDataDir does not wait for initdb: it never settles on a cluster not yet made.
    await pglite.waitReady;
    const made = await pglite.dumpDataDir("none");
    await keepCluster(file, made);
    return made;
  } finally {
    await pglite.close();
  }
}
