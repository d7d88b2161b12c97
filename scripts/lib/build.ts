import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runStep } from "./child-step";

/**
 * "Build when needed": `npm start` rebuilds only when the sources changed since the last build.
 * The build records a hash of every source file's path, size and modification time beside its output.
 */
export const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILD_STAMP = path.join(ROOT, ".next", "benchtrack-source-hash");
const SOURCE_DIRS = ["app", "components", "server", "public"];
const SOURCE_FILES = ["next.config.js", "postcss.config.mjs", "package-lock.json", "tsconfig.json", "proxy.ts", "instrumentation.ts"];

export function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function hashSources(): string {
  const hash = createHash("sha256");
  const visit = (relative: string) => {
    const absolute = path.join(ROOT, relative);
    if (!existsSync(absolute)) return;
    const stats = statSync(absolute);
    if (stats.isDirectory()) {
      if (relative.endsWith("generated") || relative.endsWith("node_modules")) return;
      for (const entry of readdirSync(absolute).sort()) visit(path.join(relative, entry));
    } else if (!/\.test\.tsx?$/.test(relative)) {
      hash.update(`${relative}:${stats.size}:${stats.mtimeMs}\n`);
    }
  };
  [...SOURCE_DIRS, ...SOURCE_FILES].forEach(visit);
  return hash.digest("hex");
}

export function isBuildCurrent(): boolean {
  return (
    existsSync(path.join(ROOT, ".next", "BUILD_ID")) &&
    existsSync(BUILD_STAMP) &&
    readFileSync(BUILD_STAMP, "utf8") === hashSources()
  );
}

/** Next's command line: `next build` builds. */
export const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");

/**
 * The build in a child process that a stop of this one is passed on to (runStep: npm start, npm run
 * build), stamped, once it succeeded, with the sources it began from (a source changed during the build
 * makes the next start build again). Resolves to its exit code.
 */
export async function buildInChild(): Promise<number> {
  const sourceHash = hashSources();
  const code = await runStep(NEXT_BIN, ["build"], ROOT);
  if (code === 0) writeFileSync(BUILD_STAMP, sourceHash);
  return code;
}

/** The build, in this process's time: for scripts that wait for it (the bench, tests); exits on a failure. */
export function buildApp(): void {
  const sourceHash = hashSources();
  run(NEXT_BIN, ["build"]);
  writeFileSync(BUILD_STAMP, sourceHash);
}
