import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../lib/build";
import { DEFAULT_POSTGRES_URL, preparePostgres } from "./backends";
import type { Backend } from "./backends";
import { measureWideUploads } from "./scale";
import type { PgbenchFloor } from "./scale";
import { startServer } from "./server";
import type { BenchServer } from "./server";

/**
 * `npm run bench -- --baseline-ref <ref>`: the same measurement against an older build, in the same run.
 * The ref is checked out as a `git worktree` in a temp folder, with this checkout's node_modules
 * hard-linked in (a ref with other dependencies needs `npm ci` there instead), its own Prisma client
 * generated and its own `next build`; the bench starts it on another port against a fresh database of
 * its own (migrated by the ref's own migrations). Removed afterwards.
 */
export interface BaselineBuild {
  ref: string;
  commit: string;
  root: string;
  dispose(): void;
}

function git(args: string[], cwd = ROOT): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim();
}

function runIn(root: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${root} (exit ${result.status})`);
}

export function buildBaseline(ref: string): BaselineBuild {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const root = mkdtempSync(path.join(os.tmpdir(), "benchtrack-baseline-"));
  git(["worktree", "add", "--detach", root, commit]);
  const dispose = () => {
    spawnSync("git", ["worktree", "remove", "--force", root], { cwd: ROOT });
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // Hard links, not a symlink: Turbopack refuses a node_modules outside the root it builds (same disk: instant).
    if (!existsSync(path.join(root, "node_modules"))) runIn(root, "cp", ["-al", path.join(ROOT, "node_modules"), path.join(root, "node_modules")]);
    console.log(`Baseline ${ref} (${commit.slice(0, 8)}): generating its Prisma client and building it in ${root}…`);
    runIn(root, "node", ["scripts/prisma-generate.mjs"]);
    runIn(root, path.join(root, "node_modules", ".bin", "next"), ["build"]);
    return { ref, commit, root, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Migrates a database with the baseline's own migrations (its scripts/db-migrate.ts). */
export function migrateWithBaseline(baseline: BaselineBuild, databaseUrl: string): void {
  const result = spawnSync(path.join(baseline.root, "node_modules", ".bin", "tsx"), ["scripts/db-migrate.ts"], {
    cwd: baseline.root,
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  if (result.status !== 0) throw new Error(`Migrating with the baseline ${baseline.ref} failed (exit ${result.status})`);
}

/** What the baseline's measurement is handed by the bench: its settings, and the sets that stop what it starts on any exit. */
export interface BaselineBenchContext {
  adminToken: string;
  resultsDir: string;
  port: number;
  uploads: number;
  concurrency: number;
  running: Set<BenchServer>;
  liveBackends: Set<Backend>;
}

/**
 * The same 50-endpoint uploads against the baseline build: its own server (port 3463) on its own fresh
 * database, migrated by its own migrations; its lines say which ref they measured.
 */
export async function measureBaselineWideUploads(
  baseline: BaselineBuild,
  backend: Backend,
  wide: string,
  floor: PgbenchFloor | null,
  context: BaselineBenchContext,
) {
  const { adminToken, resultsDir, port, uploads, concurrency, running, liveBackends } = context;
  const serverUrl = process.env.DATABASE_URL?.trim() || DEFAULT_POSTGRES_URL;
  const database = await preparePostgres(serverUrl, (url) => migrateWithBaseline(baseline, url));
  liveBackends.add(database);
  const server = await startServer({
    port,
    env: { ...database.env, BENCHTRACK_ADMIN_TOKEN: adminToken },
    logPath: path.join(resultsDir, `server-${backend.kind}-baseline.log`),
    root: baseline.root,
  });
  running.add(server);
  try {
    console.log(`[${backend.kind}] 50-endpoint uploads, baseline ${baseline.ref} (${baseline.commit.slice(0, 8)})…`);
    const result = await measureWideUploads(server, adminToken, wide, floor, uploads, concurrency);
    return {
      figures: { ...result.figures, ref: baseline.ref, commit: baseline.commit },
      lines: result.lines.map((line) => ({ ...line, test: `baseline ${baseline.ref}: ${line.test}` })),
    };
  } finally {
    await server.stop();
    running.delete(server);
    await database.dispose();
    liveBackends.delete(database);
  }
}
