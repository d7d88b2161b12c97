import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";

// An upload's endpoints get their ids in one statement (store-run.ts): the ones the project has are read,
// new ones inserted (an upsert, for a concurrent upload inserting the same). That statement must
// not take a lock on an endpoint row that a foreign key's check conflicts with: detection inserting a
// change, or another upload inserting results, holds FOR KEY SHARE on the endpoints it references until it
// commits. An upsert that names a key column in its SET takes FOR UPDATE, waits for them, and two such
// transactions locking endpoints in different orders deadlocked: an upload answered 500 (seen in
// `npm run bench -- --pages`: "deadlock detected" between an upload and the detection job). PostgreSQL
// only: the embedded database has one connection, so nothing else can hold a lock.
const postgres = testDatabaseTargets().filter(({ target }) => target.kind === "postgres");

const run = (round: number, names: string[]) => ({
  schema: "benchtrack/v1",
  tool: "custom-loadtester",
  label: "locks",
  round,
  startedAt: new Date(Date.UTC(2026, 10, round, 9)).toISOString(),
  endpoints: names.map((name) => ({ name, requests: 1000, failures: 0, latency: { unit: "ms", p50: 2, p95: 5, p99: 9 } })),
});

describe.skipIf(postgres.length === 0)("an upload's endpoint upsert on PostgreSQL", () => {
  let database: Database;
  let other: pg.Client;
  beforeAll(async () => {
    database = await openMigratedDatabase(postgres[0]!.target);
    other = new pg.Client({ connectionString: (postgres[0]!.target as { url: string }).url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await database?.close();
  });

  it("goes on while another transaction holds the key-share lock a foreign key's check takes on its endpoints", { timeout: 30_000 }, async () => {
    const slug = uniqueSlug("endpoint-locks");
    await ingestTestRun(database.prisma, slug, run(1, ["GET /a", "GET /b"]));
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    await other.query("BEGIN");
    try {
      // What inserting a change (or results) referencing these endpoints takes, held as detection holds it.
      const held = await other.query("SELECT id FROM endpoints WHERE project_id = $1 FOR KEY SHARE", [project.id]);
      expect(held.rowCount).toBe(2);
      const upload = ingestTestRun(database.prisma, slug, run(2, ["GET /b", "GET /a", "GET /c"]));
      const waited = await Promise.race([upload.then(() => "stored"), new Promise((resolve) => setTimeout(() => resolve("still waiting after 5 s"), 5_000))]);
      expect(waited).toBe("stored");
    } finally {
      await other.query("ROLLBACK");
    }
    expect(await database.prisma.run.count({ where: { projectId: project.id } })).toBe(2);
    expect(await database.prisma.endpoint.count({ where: { projectId: project.id } })).toBe(3);
  });

  it("reads the endpoints the project has, without writing or locking them: only new ones are inserted", { timeout: 30_000 }, async () => {
    const slug = uniqueSlug("endpoint-reads");
    await ingestTestRun(database.prisma, slug, run(1, ["GET /a", "GET /b"]));
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const versions = async () => (await other.query("SELECT name, xmin::text AS version FROM endpoints WHERE project_id = $1 ORDER BY name", [project.id])).rows;
    const before = await versions();
    await other.query("BEGIN");
    try {
      // The lock a write of these rows takes (an upsert's DO UPDATE did): an upload that wrote them would
      // wait for it, where the key-share lock of its results' foreign key does not.
      await other.query("SELECT id FROM endpoints WHERE project_id = $1 FOR NO KEY UPDATE", [project.id]);
      const upload = ingestTestRun(database.prisma, slug, run(2, ["GET /b", "GET /a", "GET /c"]));
      const waited = await Promise.race([upload.then(() => "stored"), new Promise((resolve) => setTimeout(() => resolve("still waiting after 5 s"), 5_000))]);
      expect(waited).toBe("stored");
    } finally {
      await other.query("ROLLBACK");
    }
    const after = await versions();
    expect(after.map(({ name }) => name)).toEqual(["GET /a", "GET /b", "GET /c"]);
    // The rows it had are the versions they were: never rewritten.
    expect(after.slice(0, 2)).toEqual(before);
    const stored = await database.prisma.result.findMany({ where: { projectId: project.id, endpointId: { not: null } }, select: { run: { select: { round: true } }, endpoint: { select: { name: true } } } });
    expect(stored.map(({ run, endpoint }) => `${run.round} ${endpoint?.name}`).sort()).toEqual(["1 GET /a", "1 GET /b", "2 GET /a", "2 GET /b", "2 GET /c"]);
  });
});
