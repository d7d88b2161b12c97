import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../api/root";
import type { Database } from "../db";
import { readFixture } from "../domain/parsers/fixtures/read-fixture";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { ingestTestRun } from "../testing/seed";
import { uploadOfFiles } from "./received-upload";

const GHZ_METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];
const ghzFiles = () =>
  GHZ_METHODS.map((method) => ({ name: `${method}.json`, text: readFixture(`ghz/baseline/round1/${method}.json`) }));

describe.each(testDatabaseTargets())("run.get on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("returns the stored run's report, and NOT_FOUND for an unknown run or project", async () => {
    const slug = uniqueSlug("report");
    const upload = uploadOfFiles(
      ghzFiles().map(({ name, text }) => ({ name, contentType: "application/json", bytes: Buffer.from(text) })),
    );
    const outcome = await ingestTestRun(database.prisma, slug, upload, { metadata: { label: "baseline", round: 1 } });
    const caller = createCaller({ db: database.prisma });

    const report = await caller.run.get({ project: slug, id: outcome.run.id });
    expect(report?.run).toMatchObject({ id: outcome.run.id, title: "baseline #1", tool: "ghz", format: "ghz" });
    expect(report?.endpoints.map((row) => row.name)).toEqual(GHZ_METHODS);
    expect(report?.histograms).toHaveLength(6); // one per method, and the aggregate's (HDR, pooled from every call)

    // Services throw the one not-found (server/services/errors.ts); the page answers it with a 404.
    await expect(caller.run.get({ project: slug, id: "no-such-run" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'Run "no-such-run" not found',
    });
    const missing = uniqueSlug("missing");
    await expect(caller.run.get({ project: missing, id: outcome.run.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `Project "${missing}" not found`,
    });
  });
});
