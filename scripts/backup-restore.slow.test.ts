import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/v1/projects/[project]/compare/route";
import { GET as listIncidents } from "@/app/api/v1/projects/[project]/incidents/route";
import { GET as getOverview } from "@/app/api/v1/projects/[project]/route";
import { GET as verdict } from "@/app/api/v1/projects/[project]/runs/[id]/verdict/route";
import { GET as listRuns, POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { closeDb, getDb, openDatabase, targetFromEnv } from "@/server/db";
import { rereadEnv } from "@/server/env";
import { getProjectOverview } from "@/server/services/projects";
import { uniqueSlug } from "@/server/testing/databases";
import { startPostgresCluster } from "@/server/testing/postgres-cluster";
import { call, configureTestEnvironment } from "@/server/testing/rest-client";
import { mintProjectToken } from "@/server/testing/seed";
import { seedTransferProject } from "@/server/testing/transfer-seed";
import type { SeededProject } from "@/server/testing/transfer-seed";
import { migrateDatabase } from "@/server/migrate/apply";

// The move from the embedded database to PostgreSQL, end to end with the real commands: a project seeded
// on PGlite through the API (k6 rounds, a Go benchmark, an incident from the real detection, an
// annotation, a pin), `npm run backup` (refused while the database is open elsewhere), `npm run restore`
// into a fresh PostgreSQL database (refused into one that holds projects, unless --force), and the same
// answers read back there: runs, overview, comparison, gate verdicts, incidents.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");

async function command(script: "backup" | "restore", args: string[], env: Record<string, string | undefined>) {
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  try {
    const { stdout, stderr } = await run("npx", ["tsx", `scripts/${script}.ts`, ...args], { cwd: ROOT, env: childEnv, timeout: 300_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/** A new, empty PostgreSQL database: on DATABASE_URL's server when set, else on a cluster of this test's own. */
async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const shared = process.env.DATABASE_URL?.trim();
  if (!shared) {
    const cluster = await startPostgresCluster();
    return { url: cluster.url(), drop: () => cluster.remove() };
  }
  const name = `bt_move_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: shared });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** What a team sees of the project, through the API (and the overview's use case), on whichever database the environment names. */
async function answersOf(seeded: SeededProject) {
  const { slug } = seeded;
  const json = async (response: Promise<Response>) => {
    const answer = await response;
    expect(answer.status).toBe(200);
    return (await answer.json()) as unknown;
  };
  const allRuns = [...seeded.k6Runs, seeded.goRun, ...seeded.steppedRuns];
  return {
    settings: await json(call(getOverview, `/api/v1/projects/${slug}`, { project: slug })),
    overview: await getProjectOverview(await getDb(), slug),
    runs: await json(call(listRuns, `/api/v1/projects/${slug}/runs`, { project: slug })),
    compare: await json(
      call(compare, `/api/v1/projects/${slug}/compare`, { project: slug }, { query: { base: seeded.k6Runs.slice(0, 3).join(","), head: seeded.k6Runs.slice(3, 6).join(",") } }),
    ),
    verdicts: await Promise.all(allRuns.map((id) => json(call(verdict, `/api/v1/projects/${slug}/runs/${id}/verdict`, { project: slug, id })))),
    incidents: await json(call(listIncidents, `/api/v1/projects/${slug}/incidents`, { project: slug }, { query: { state: "all" } })),
  };
}

/** The overview less what depends on the clock of the read (when it was made, "2 minutes ago"). */
function withoutClock(overview: Awaited<ReturnType<typeof getProjectOverview>>) {
  if (!overview) throw new Error("no overview");
  return { ...overview, generatedAt: "(now)", freshness: { ...overview.freshness, message: "(relative to now)" } };
}

describe("moving from the embedded database to PostgreSQL: npm run backup, npm run restore", () => {
  const folder = mkdtemp(path.join(os.tmpdir(), "benchtrack-move-"));
  let postgres: { url: string; drop: () => Promise<void> } | null = null;

  afterAll(async () => {
    await closeDb();
    await postgres?.drop();
    await rm(await folder, { recursive: true, force: true });
  });

  it("restores the same runs, overview, comparison, verdicts and incidents", async () => {
    // Seed on the embedded database (whatever the run's DATABASE_URL).
    delete process.env.DATABASE_URL;
    await configureTestEnvironment();
    rereadEnv();
    const dataDir = process.env.BENCHTRACK_DATA_DIR!;
    const seeded = await seedTransferProject(uniqueSlug("move"));
    const token = await mintProjectToken(seeded.slug);
    const embedded = await answersOf(seeded);
    expect((embedded.incidents as unknown[]).length).toBeGreaterThanOrEqual(1);
    await closeDb();

    const file = path.join(await folder, "benchtrack.ndjson.gz");
    const embeddedEnv = { DATABASE_URL: undefined, BENCHTRACK_DATA_DIR: dataDir };

    // The embedded database open elsewhere (a running server): the backup says so and writes nothing.
    const holder = await openDatabase({ kind: "embedded", dataDir });
    const refused = await command("backup", [file], embeddedEnv);
    await holder.close();
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/in use by process \d+.*\n.*stop it/);
    expect(existsSync(file)).toBe(false);

    const backup = await command("backup", [file], embeddedEnv);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Backed up 1 project\(s\), \d+ run\(s\)/);

    postgres = await freshPostgres();
    const restored = await command("restore", [file], { DATABASE_URL: postgres.url });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(`Restored 1 project(s) (${seeded.slug})`);
    // Again: the database holds the project now, so it is refused, and --force replaces it.
    const again = await command("restore", [file], { DATABASE_URL: postgres.url });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds 1 project\(s\).*--force/);
    const forced = await command("restore", [file, "--force"], { DATABASE_URL: postgres.url });
    expect(forced.code, forced.output).toBe(0);

    // Read it all again on PostgreSQL.
    process.env.DATABASE_URL = postgres.url;
    rereadEnv();
    await closeDb();
    await migrateDatabase(targetFromEnv());
    const moved = await answersOf(seeded);
    expect(moved.settings).toEqual(embedded.settings);
    expect(moved.runs).toEqual(embedded.runs);
    expect(withoutClock(moved.overview)).toEqual(withoutClock(embedded.overview));
    expect(moved.compare).toEqual(embedded.compare);
    expect(moved.verdicts).toEqual(embedded.verdicts);
    expect(moved.incidents).toEqual(embedded.incidents);

    // The project's token moved as its hash: CI's secret still uploads.
    const uploaded = await call(uploadRun, `/api/v1/projects/${seeded.slug}/runs`, { project: seeded.slug }, {
      method: "POST",
      token,
      body: JSON.stringify({ schema: "benchtrack/v1", tool: "loadgen", label: "after-move", endpoints: [{ name: "GET /", requests: 10, failures: 0, latency: { unit: "ms", p95: 5 } }] }),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  }, 900_000);
});
