// npm start (and npm run dev with --dev): the whole path from a fresh clone to a served dashboard.
// 1. validate the environment, 2. take the admin token (the environment's, else the data folder's,
// else make one: server/admin-token.ts), 3. generate the Prisma client if missing, 4. build if the
// sources changed since the last build, 5. apply pending migrations (scripts/db-migrate.ts), 6. serve
// on PORT and print the URL (and, on the start that made it, the admin token, this once). A stop
// (SIGTERM, SIGINT) during 4 or 5 is passed on to that step (scripts/lib/child-step.ts); afterwards it
// drains the server within BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS (scripts/serve.ts).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describeAdminTokenAtStart, ensureAdminToken } from "../server/admin-token";
import { describeTarget, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { NEXT_BIN, ROOT, buildInChild, isBuildCurrent, run } from "./lib/build";
import { exitCodeOf, runStep } from "./lib/child-step";

const isDev = process.argv.includes("--dev");
const env = getEnv();
const adminToken = ensureAdminToken(env);

if (!existsSync(path.join(ROOT, "server", "generated", "prisma", "client.ts"))) {
  run("node", ["scripts/prisma-generate.mjs"]);
}

if (!isDev && !isBuildCurrent()) {
  console.log("Building Benchtrack (first start, or the sources changed)…");
  const built = await buildInChild();
  if (built !== 0) process.exit(built);
}

const target = targetFromEnv(env);
// Pending migrations are applied in a process of their own (npm run db:migrate's script): this one lives
// as long as the server, and the embedded database it would open here (PGlite's WebAssembly heap) stayed
// resident after its close: 497 MB of an idle npm start's 1.3 GB, measured on a new data folder.
const migrated = await runStep(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "db-migrate.ts")], ROOT);
if (migrated !== 0) process.exit(migrated);
// Handed to the server (its child process) only.
if (adminToken.kind === "created" || adminToken.kind === "file") process.env.BENCHTRACK_ADMIN_TOKEN = adminToken.token;

const url = `http://localhost:${env.PORT}`;
// Production: our own server around Next's handler (scripts/serve.ts), which drains on SIGTERM and
// SIGINT within BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS and keeps `next start`'s 65 s keep-alive;
// development: `next dev` as is.
const server = isDev
  ? spawn(NEXT_BIN, ["dev", "-p", String(env.PORT)], { cwd: ROOT, stdio: ["inherit", "pipe", "inherit"] })
  : // The IPC channel only tells the server when this process is gone (it then stops as on SIGTERM).
    spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "serve.ts")], { cwd: ROOT, stdio: ["inherit", "pipe", "inherit", "ipc"] });
let isTokenNoteShown = false;
/** Said once, when the server is ready (or exits before): after the build's output, where it is seen. */
function showTokenNote(): void {
  if (isTokenNoteShown) return;
  isTokenNoteShown = true;
  const note = describeAdminTokenAtStart(adminToken, url);
  if (note) console.log(`${note}\n`);
}
server.stdout?.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (/Ready in/i.test(chunk.toString())) {
    console.log(`\nBenchtrack is running at ${url}  (${describeTarget(target)})\n`);
    showTokenNote();
  }
});
// The server stops itself: a signal is passed on (in a terminal, Ctrl+C reaches both processes; the
// server ignores the repeat), and this process exits with the server's code: 0 for a stop that finished
// its work, 1 for one cut off at the limit (scripts/serve.ts), 128 + n for a server killed by signal n.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => {
  showTokenNote();
  process.exit(exitCodeOf(code, signal));
});
