import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { uploadOfFiles } from "./received-upload";
import { ingestRun } from "./ingest-run";
import type { JudgeUpload, Judged } from "./ingest-run";

// An upload is judged first, then written whole in one statement: its rows (endpoints, results,
// metrics, raw files), the run row with the gate's result, and its jobs (ingest-run.ts, store-run.ts).
// The rows come before their run in that statement, and their keys to it are checked at COMMIT. What
// must hold: a judgement that fails, or a client that leaves while the run is judged, stores nothing of
// it, not even a new endpoint; a judged run keeps its judgement with its rows; and a row whose run never
// comes is still refused (the key is deferred, not gone).

const run = (round: number, names: string[]) => ({
  schema: "benchtrack/v1",
  tool: "custom-loadtester",
  label: "judged",
  round,
  startedAt: new Date(Date.UTC(2026, 10, round, 9)).toISOString(),
  environment: { git: { branch: "main", commit: `c0de${round}` } },
  endpoints: names.map((name) => ({ name, requests: 1000, failures: 0, latency: { unit: "ms", p50: 2, p95: 5, p99: 9 } })),
  metrics: { "queue.depth": { value: round, unit: "count", better: "lower" } },
});

const KEPT: Judged<string>["kept"] = { outcome: "pass", outcomeReasons: ["judged by the test"], regressed: false, gateChanges: [] };
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabaseTargets())("an upload judged, then stored, on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("judged-stored");

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    await ingestTestRun(database.prisma, slug, run(1, ["GetListing"]));
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  function upload(round: number, names: string[], judge: JudgeUpload<string>, signal?: AbortSignal) {
    return ingestRun(database.prisma, {
      projectSlug: slug,
      createProjectIfMissing: false,
      upload: uploadOfFiles([{ name: "run.json", contentType: "application/json", bytes: Buffer.from(JSON.stringify(run(round, names))) }]),
      format: null,
      metadata: {},
      idempotencyKey: null,
      baseUrl: "http://bench.test",
      judge,
      signal,
    });
  }

  async function stored() {
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    const [runs, results, metrics, endpoints, raw] = await Promise.all([
      database.prisma.run.count({ where: { projectId: project.id } }),
      database.prisma.result.count({ where: { projectId: project.id } }),
      database.prisma.metric.count({ where: { projectId: project.id } }),
      database.prisma.endpoint.findMany({ where: { projectId: project.id }, select: { name: true }, orderBy: { name: "asc" } }),
      database.prisma.rawUpload.count({ where: { run: { projectId: project.id } } }),
    ]);
    return { runs, results, metrics, endpoints: endpoints.map((endpoint) => endpoint.name), raw };
  }

  it("a judgement that fails stores nothing of the run", async () => {
    const before = await stored();
    const failing: JudgeUpload<string> = () => after(300).then(() => Promise.reject(new Error("the judge thread died")));
    await expect(upload(2, ["GetListing", "NewEndpoint"], failing)).rejects.toThrow("the judge thread died");
    expect(await stored()).toEqual(before);
    expect(before.endpoints).toEqual(["GetListing"]);
  });

  it("a client that leaves while the run is judged: nothing stored", async () => {
    const before = await stored();
    const client = new AbortController();
    const leaving: JudgeUpload<string> = () =>
      after(300).then(() => {
        client.abort();
        return { gate: "judged", kept: KEPT };
      });
    await expect(upload(3, ["GetListing", "Another"], leaving, client.signal)).rejects.toThrow(/abort/i);
    expect(await stored()).toEqual(before);
  });

  it("a judged run is stored whole, with its judgement", async () => {
    const before = await stored();
    const judged: JudgeUpload<string> = () => after(300).then(() => ({ gate: "judged", kept: KEPT }));
    const answer = await upload(4, ["GetListing", "Third"], judged);
    expect(answer).toMatchObject({ status: "created", gate: "judged" });
    const row = await database.prisma.run.findUniqueOrThrow({ where: { id: answer.run.id }, include: { results: true, metrics: true } });
    expect(row).toMatchObject({ outcome: "pass", outcomeReasons: ["judged by the test"], regressed: false });
    expect(row.results).toHaveLength(3);
    expect(row.metrics.map((metric) => metric.key)).toEqual(["queue.depth"]);
    expect(await stored()).toEqual({ ...before, runs: before.runs + 1, results: before.results + 3, metrics: before.metrics + 1, endpoints: ["GetListing", "Third"], raw: before.raw + 1 });
  });

  it("refuses at COMMIT a result whose run never comes", async () => {
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug } });
    const before = await stored();
    await expect(
      database.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO results (run_id, project_id, started_at, requests, failures) VALUES ('no-such-run', ${project.id}, now(), 1, 0)`;
      }),
    ).rejects.toThrow(/foreign ?key/i);
    expect(await stored()).toEqual(before);
  });
});
