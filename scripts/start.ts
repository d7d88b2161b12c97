// npm start (and npm run dev with --dev): the whole path from a fresh clone to a served dashboard.
// 1. validate the environment, 2. generate the Prisma client if missing, 3. build if the sources
// changed since the last build, 4. apply pending migrations, 5. serve on PORT and print the URL.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describeTarget, targetFromEnv } from "../server/db";
import { getEnv } from "../server/env";
import { migrateDatabase } from "../server/migrate/apply";
import { ROOT, buildApp, isBuildCurrent, run } from "./lib/build";

const isDev = process.argv.includes("--dev");
const env = getEnv();

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
server.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (/Ready in/i.test(chunk.toString())) {
    console.log(`\nBenchtrack is running at ${url}  (${describeTarget(target)})\n`);
  }
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code) => process.exit(code ?? 0));
