import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";

/**
 * The history version (docs/architecture.md, "The history version"): every statement that writes a
 * project's runs, results or metrics moves it once, in its own transaction, and logs what it appended.
 * Triggers move it, so no write path can forget it: these tests write each table every way, through the
 * upload path and by hand, and check the catalog holds the triggers for every table a history reads.
 */
const T0 = Date.UTC(2026, 2, 1, 9);

/** The tables a trend history (and so the history cache) reads. */
const HISTORY_TABLES = ["runs", "results", "metrics"] as const;

describe.each(testDatabaseTargets())("history version on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  const versionOf = async (projectId: string) =>
    (await database.prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { historyVersion: true } })).historyVersion;
  const changesOf = (projectId: string) =>
    database.prisma.historyChange.findMany({ where: { projectId }, orderBy: { version: "asc" }, select: { version: true, kind: true, runIds: true } });

  it("has triggers for insert, update, delete and truncate on every table a history reads", async () => {
    const triggers = await database.prisma.$queryRaw<{ table: string; events: number }[]>`
      SELECT c.relname AS "table", t.tgtype::int AS events FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal AND t.tgname LIKE '%history%'`;
    // tgtype bits: 4 INSERT, 8 DELETE, 16 UPDATE, 32 TRUNCATE.
    for (const table of HISTORY_TABLES) {
      const events = triggers.filter((trigger) => trigger.table === table).reduce((bits, trigger) => bits | trigger.events, 0);
      expect({ table, insert: (events & 4) !== 0, update: (events & 16) !== 0, delete: (events & 8) !== 0, truncate: (events & 32) !== 0 }).toEqual({
        table,
        insert: true,
        update: true,
        delete: true,
        truncate: true,
      });
    }
  });

  it("moves once with an upload, in its transaction, and logs the run whose results and metrics it appended", async () => {
    const slug = uniqueSlug("history-upload");
    const document = {
      schema: "benchtrack/v1",
      tool: "custom",
      startedAt: new Date(T0).toISOString(),
      endpoints: [{ name: "GetListing", requests: 10, failures: 0, latency: { unit: "ms", p95: 5 }, metrics: { cpu: { value: 40, unit: "%" } } }],
    };
    const first = await ingestTestRun(database.prisma, slug, document, { format: "benchtrack" });
    const projectId = first.project.id;
    const afterFirst = await versionOf(projectId);
    expect(afterFirst).toBeGreaterThan(0);
    const changes = await changesOf(projectId);
    expect(changes.at(-1)?.version).toBe(afterFirst);
    // One move for the whole transaction (its run, results and metrics): the project's row is written once.
    expect(changes.map((change) => change.kind)).toEqual(["results"]);
    expect(changes[0]?.runIds).toEqual([first.run.id]);

    const second = await ingestTestRun(database.prisma, slug, { ...document, startedAt: new Date(T0 + 60_000).toISOString() }, { format: "benchtrack" });
    expect(await versionOf(projectId)).toBe(afterFirst + 1);
    expect((await changesOf(projectId)).filter((change) => change.kind === "results").map((change) => change.runIds)).toEqual([[first.run.id], [second.run.id]]);
  });

  it("moves with every insert, update and delete of runs, results and metrics, and logs the others as rewrites", async () => {
    const slug = uniqueSlug("history-writes");
    const project = await database.prisma.project.create({ data: { slug, name: slug } });
    const other = await database.prisma.project.create({ data: { slug: `${slug}-other`, name: slug } });
    const endpoint = await database.prisma.endpoint.create({ data: { projectId: project.id, name: "GetListing" } });
    const run = { id: `${slug}-run`, projectId: project.id, tool: "custom", format: "benchtrack", startedAt: new Date(T0) };
    const row = { runId: run.id, projectId: project.id, endpointId: endpoint.id, startedAt: run.startedAt };
    const lastKind = async () => (await changesOf(project.id)).at(-1)?.kind;

    const steps: [string, () => Promise<unknown>, string][] = [
      ["insert a run", () => database.prisma.run.create({ data: run }), "runs"],
      ["insert a result", () => database.prisma.result.create({ data: { ...row, p95Ms: 5 } }), "results"],
      ["insert a metric", () => database.prisma.metric.create({ data: { ...row, key: "cpu", value: 1 } }), "metrics"],
      ["update a run", () => database.prisma.run.update({ where: { id: run.id }, data: { label: "nightly" } }), "rewrite"],
      ["update a result", () => database.prisma.result.updateMany({ where: { runId: run.id }, data: { p95Ms: 6 } }), "rewrite"],
      ["update a metric", () => database.prisma.metric.updateMany({ where: { runId: run.id }, data: { value: 2 } }), "rewrite"],
      ["delete a metric", () => database.prisma.metric.deleteMany({ where: { runId: run.id } }), "rewrite"],
      ["delete a result", () => database.prisma.result.deleteMany({ where: { runId: run.id } }), "rewrite"],
      ["delete a run", () => database.prisma.run.delete({ where: { id: run.id } }), "rewrite"],
    ];
    for (const [step, write, kind] of steps) {
      const before = await versionOf(project.id);
      await write();
      expect({ step, moved: (await versionOf(project.id)) - before, kind: await lastKind() }).toEqual({ step, moved: 1, kind });
    }
    // Raw SQL (as the bench seeds write) moves it too, once per statement; a write that matches no row does not.
    const before = await versionOf(project.id);
    await database.prisma.$executeRaw`INSERT INTO runs (id, project_id, tool, format, started_at) VALUES (${`${slug}-a`}, ${project.id}, 'custom', 'benchtrack', now()), (${`${slug}-b`}, ${project.id}, 'custom', 'benchtrack', now())`;
    await database.prisma.$executeRaw`UPDATE results SET p95_ms = 1 WHERE run_id = 'no such run'`;
    expect(await versionOf(project.id)).toBe(before + 1);
    // Another project's history is not moved.
    expect(await versionOf(other.id)).toBe(0);
  });

  it("keeps a project's latest 1,000 changes", async () => {
    const slug = uniqueSlug("history-pruned");
    const project = await database.prisma.project.create({ data: { slug, name: slug } });
    await database.prisma.$executeRaw`UPDATE projects SET history_version = 5000 WHERE id = ${project.id}`;
    for (let index = 0; index < 3; index++) {
      await database.prisma.run.create({ data: { id: `${slug}-${index}`, projectId: project.id, tool: "custom", format: "benchtrack", startedAt: new Date(T0) } });
    }
    await database.prisma.historyChange.create({ data: { projectId: project.id, version: 4000, kind: "runs", runIds: [] } });
    await database.prisma.run.create({ data: { id: `${slug}-last`, projectId: project.id, tool: "custom", format: "benchtrack", startedAt: new Date(T0) } });
    expect((await changesOf(project.id)).map((change) => change.version)).toEqual([5001, 5002, 5003, 5004]);
  });
});
