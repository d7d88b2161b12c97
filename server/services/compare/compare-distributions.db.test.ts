import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { AGGREGATE_NAME } from "../../domain/run";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { compareProjectRuns } from "./comparisons";
import { uploadOfFiles } from "../ingest/received-upload";

const GHZ = join(import.meta.dirname, "../../domain/parsers/fixtures/ghz");
const METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];

describe.each(testDatabaseTargets())("compare: latency distributions pooled across stored rounds, on $name", ({ target }) => {
  let database: Database;
  const slug = uniqueSlug("compare-dist");

  const upload = async (files: { name: string; bytes: Buffer }[], metadata: { label: string; round?: number }) =>
    ingestTestRun(database.prisma, slug, uploadOfFiles(files.map((file) => ({ ...file, contentType: "application/json" }))), { metadata });

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    // Two ghz rounds a side, each its five per-method reports with complete details[] (HDR histograms).
    for (const [variant, label] of [["baseline", "baseline"], ["managedasync", "ManagedAsync"]] as const) {
      for (const round of [1, 2]) {
        const files = METHODS.map((method) => ({ name: `${method}.json`, bytes: readFileSync(join(GHZ, variant, `round${round}`, `${method}.json`)) }));
        await upload(files, { label, round });
      }
    }
    // A run whose format keeps no histogram (Benchtrack summary only).
    const summary = JSON.stringify({ schema: "benchtrack/v1", tool: "ghz", label: "summary-only", summary: { latency: { unit: "ms", p50: 2, p95: 5 } } });
    await upload([{ name: "run.json", bytes: Buffer.from(summary) }], { label: "summary-only" });
  });

  afterAll(async () => {
    await database.close();
  });

  const compare = (base: string, head: string) =>
    compareProjectRuns(database.prisma, slug, { base, head, last: null, test: "welch", tool: null }, "http://bench.test");

  it("pools every stored request of both rounds per side and tests the shapes", async () => {
    const result = await compare("label:baseline", "label:ManagedAsync");
    const aggregate = result.distributions.endpoints.find((entry) => entry.endpoint === AGGREGATE_NAME);
    if (aggregate?.status !== "ok") throw new Error(`no overlay: ${aggregate?.status === "unavailable" ? aggregate.reason : "missing"}`);
    expect(result.base.runs).toHaveLength(2);
    expect(aggregate.base).toMatchObject({ runs: 2, runsWithHistogram: 2 });
    expect(aggregate.base.count).toBeGreaterThan(1000);
    expect(aggregate.test.baseCount).toBe(aggregate.base.count);
    expect(aggregate.test.statistic).toBeGreaterThan(0.1);
    expect(aggregate.cdf.length).toBeGreaterThan(10);
    expect(result.distributions.endpoints.map((entry) => entry.endpoint).sort()).toEqual([AGGREGATE_NAME, ...METHODS].sort());
    expect(METHODS).toContain(result.distributions.biggestChange);
  });

  it("says a side has no histogram instead of drawing one", async () => {
    const result = await compare("label:summary-only", "label:ManagedAsync");
    const aggregate = result.distributions.endpoints[0]!;
    expect(aggregate.status).toBe("unavailable");
    expect(aggregate.status === "unavailable" && aggregate.reason).toMatch(/^No base run carries a latency histogram/);
  });
});
