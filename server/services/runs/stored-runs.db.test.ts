import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { loadParsedRuns } from "./stored-runs";

// Prisma reads runs and their results in statements of their own, so a run deleted between them (a
// delete on another request) is read with no results: loadParsedRuns leaves it out as gone instead of
// failing the page that asked (seen as a 500 of the home page's grades while a run was deleted).

describe.each(testDatabaseTargets())("stored runs read back on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("stored-runs");

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  async function ingest(commit: string) {
    const { run, project } = await ingestTestRun(database.prisma, slug, {
      schema: "benchtrack/v1",
      tool: "loadgen",
      label: "nightly",
      environment: { git: { branch: "main", commit } },
      endpoints: [{ name: "GetListing", requests: 100, failures: 1, latency: { unit: "ms", p50: 5, p95: 10, p99: 20 } }],
    });
    return { id: run.id, projectId: project.id };
  }

  it("reads each run whole, and leaves out one whose results were deleted while it was read", async () => {
    const kept = await ingest("aaa0001");
    const deleted = await ingest("aaa0002");
    // What the second statement sees when the run is deleted after the first: the run, no results.
    await database.prisma.$executeRaw`DELETE FROM results WHERE run_id = ${deleted.id}`;

    const loaded = await loadParsedRuns(database.prisma, kept.projectId, [kept.id, deleted.id]);
    expect([...loaded.keys()]).toEqual([kept.id]);
    expect(loaded.get(kept.id)?.run.endpoints.map((endpoint) => [endpoint.name, endpoint.requests, endpoint.failures])).toEqual([["GetListing", 100, 1]]);
  });
});
