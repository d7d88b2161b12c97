import { closeDb } from "../db";
import { rereadEnv } from "../env";

/**
 * Run before each test file (vitest.config.ts: setupFiles). The files of a project share their worker's
 * process and modules (isolate: false: importing the server once per worker instead of once per file
 * saved about half of each pass), so each file starts here from what a process of its own would have: the
 * environment as the run began (a file sets its own before the server reads it: rate limits, a read
 * token, allowed webhook hosts), read again on first use, and no database left open by the file before.
 */
const globalForSetup = globalThis as unknown as { benchtrackInitialEnv?: NodeJS.ProcessEnv };
const initial = (globalForSetup.benchtrackInitialEnv ??= { ...process.env });
for (const key of Object.keys(process.env)) {
  if (!(key in initial)) delete process.env[key];
}
Object.assign(process.env, initial);
rereadEnv();
await closeDb();
