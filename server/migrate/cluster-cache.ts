import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * PGlite makes a cluster by running initdb in WebAssembly: 5 s and 7 s of CPU on a 2-core machine, for
 * every new embedded database. Clusters are therefore made once and kept as PGlite data folder tarballs
 * (`dumpDataDir`) in node_modules/.cache/benchtrack (the checkout's own, as other tools keep their
 * caches; `npm ci` clears it, and so may anyone), and a new database loads one in about a second: an
 * empty cluster here (scratch databases: the schema diff, data migrations' tests), a migrated one in
 * template.ts. A tarball holds a cluster and nothing else: no data, no secret.
 */
export const CLUSTER_CACHE_DIR = path.resolve(import.meta.dirname, "../../node_modules/.cache/benchtrack");

/** A partial file left by a process killed while writing it is removed once it is this old. */
const STALE_PARTIAL_MS = 10 * 60_000;

/** The cached tarball named `file`, or null. */
export async function readCachedCluster(file: string): Promise<Blob | null> {
  const kept = await readFile(path.join(CLUSTER_CACHE_DIR, file)).catch(() => null);
  return kept ? new Blob([kept]) : null;
}

/**
 * Keeps `cluster` as `file`: written whole under another name, then renamed, so a process reading it
 * never sees half a file. The tarballs `replaces` matches (an older set of migrations' template) and
 * partial files left by a killed process are removed. A cache that cannot be written (a read-only
 * checkout) is said once, and costs each new database the time.
 */
export async function keepCluster(file: string, cluster: Blob, replaces: RegExp | null = null): Promise<void> {
  try {
    await mkdir(CLUSTER_CACHE_DIR, { recursive: true });
    const partial = path.join(CLUSTER_CACHE_DIR, `${file}.${process.pid}.${randomUUID().slice(0, 8)}.partial`);
    await writeFile(partial, new Uint8Array(await cluster.arrayBuffer()));
    await rename(partial, path.join(CLUSTER_CACHE_DIR, file));
  } catch (error) {
    warnOnce(`Benchtrack could not keep a database template in ${CLUSTER_CACHE_DIR} (${String(error)}): each new embedded database takes seconds more.`);
    return;
  }
  for (const name of await readdir(CLUSTER_CACHE_DIR).catch(() => [])) {
    const entry = path.join(CLUSTER_CACHE_DIR, name);
    const isReplaced = name !== file && replaces?.test(name) === true;
    const modifiedMs = name.endsWith(".partial") ? (await stat(entry).catch(() => null))?.mtimeMs : undefined;
    const isStalePartial = modifiedMs !== undefined && Date.now() - modifiedMs > STALE_PARTIAL_MS;
    if (isReplaced || isStalePartial) await rm(entry, { force: true }).catch(() => undefined);
  }
}

let isWarned = false;
function warnOnce(message: string): void {
  if (isWarned) return;
  isWarned = true;
  console.warn(message);
}

/** An installed package's version (its package.json, found from where the package resolves). */
export function readPackageVersion(name: string): string {
  let folder = path.dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const file = path.join(folder, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string };
      if (manifest.name === name) return manifest.version;
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`No package.json of ${name} above where it resolves`);
    folder = parent;
  }
}

/** `read`'s result, read once per process; a failed read is tried again by the next call. */
export function readOnce<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () =>
    (result ??= read().catch((error: unknown) => {
      result = undefined;
      throw error;
    }));
}

const readEmptyCluster = readOnce(readOrMakeEmptyCluster);

/** Opens a new in-memory PGlite on an empty cluster (initdb's), loaded from the cache; the cluster is made and kept the first time. */
export async function openEmptyPGlite(): Promise<PGlite> {
  return new PGlite({ loadDataDir: await readEmptyCluster() });
}

async function readOrMakeEmptyCluster(): Promise<Blob> {
  const file = `empty-${readPackageVersion("@electric-sql/pglite")}.tar`;
  const kept = await readCachedCluster(file);
  if (kept) return kept;
  const pglite = new PGlite();
  try {
    // dumpDataDir does not wait for initdb: it never settles on a cluster not yet made.
    await pglite.waitReady;
    const made = await pglite.dumpDataDir("none");
    await keepCluster(file, made, /^empty-.*\.tar$/);
    return made;
  } finally {
    await pglite.close();
  }
}
