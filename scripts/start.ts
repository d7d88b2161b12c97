// npm start (and npm run dev with --dev): the whole path from a fresh clone to a served dashboard.
// 1. validate the environment, 2. take the admin token (the environment's, else the data folder's,
// else make one: server/admin-token.ts), 3. generate the Prisma client if missing, 4. build if the
// sources changed since the last build, 5. apply pending migrations, 6. serve on PORT and print the URL
// (and, on the start that made it, the admin token, this once).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describeAdminTokenAtStart, ensureAdminToken } from "../server/admin-token";
import { describeTarget, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { migrateDatabase } from "../server/migrate/apply";
import { ROOT, buildApp, isBuildCurrent, run } from "./lib/build";

const isDev = process.argv.includes("--dev");
const env = getEnv();
const adminToken = ensureAdminToken(env);
// Handed to the server (its child process) only.
if (adminToken.kind === "created" || adminToken.kind === "file") process.env.BENCHTRACK_ADMIN_TOKEN = adminToken.token;

if (!existsSync(path.join(ROOT, "server", "generated", "prisma", "client.ts"))) {
  run("node", ["scripts/prisma-generate.mjs"]);
}

if (!isDev && !isBuildCurrent()) {
  console.log("Building Benchtrack (first start, or the sources changed)…");
  buildApp();
}

const target = targetFromEnv(env);
const applied = await migrateDatabase(target);
console.log(
  applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database schema is up to date.",
);

const url = `http://localhost:${env.PORT}`;
// Idle keep-alive connections stay open 65 s (Node's default is 5 s): a client or proxy that reuses one
// just as the server closes it gets ECONNRESET on its upload; 65 s outlasts the usual 60 s of proxies.
const nextArgs = isDev ? ["dev", "-p", String(env.PORT)] : ["start", "-p", String(env.PORT), "--keepAliveTimeout", "65000"];
const server = spawn(path.join(ROOT, "node_modules", ".bin", "next"), nextArgs, {
  cwd: ROOT,
  stdio: ["inherit", "pipe", "inherit"],
});
let isTokenNoteShown = false;
/** Said once, when the server is ready (or exits before): after the build's output, where it is seen. */
function showTokenNote(): void {
  if (isTokenNoteShown) return;
  isTokenNoteShown = true;
  const note = describeAdminTokenAtStart(adminToken, url);
  if (note) console.log(`${note}\n`);
}
server.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (/Ready in/i.test(chunk.toString())) {
    console.log(`\nBenchtrack is running at ${url}  (${describeTarget(target)})\n`);
    showTokenNote();
  }
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => {
  showTokenNote();
  process.exit(code ?? 0);
});

