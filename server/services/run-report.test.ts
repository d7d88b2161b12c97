import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../api/root";
import type { Database } from "../db";
import { parseUpload } from "../domain/parsers";
import { readFixture } from "../domain/parsers/fixtures/read-fixture";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { uploadOfFiles } from "../http/upload-body";
import { ingestRun } from "./ingest-run";
import { niceStep, runTitle, safeHttpUrl, statusToneOf, toHistogramBars, toRunReport } from "./run-report";

const GHZ_METHODS = ["GetListing", "ListListings", "SearchListings", "CheckStockAvailability", "GetAllCategories"];
const ghzFiles = () =>
  GHZ_METHODS.map((method) => ({ name: `${method}.json`, text: readFixture(`ghz/baseline/round1/${method}.json`) }));

describe("toHistogramBars", () => {
  it("keeps a few buckets as they are, each bar's range starting where the previous ended", () => {
    const bars = toHistogramBars([
      { upperMs: 3, count: 2 },
      { upperMs: 1, count: 1 },
      { upperMs: 5, count: 1 },
    ]);
    expect(bars).toEqual([
      { lowerMs: null, upperMs: 1, count: 1, share: 0.25 },
      { lowerMs: 1, upperMs: 3, count: 2, share: 0.5 },
      { lowerMs: 3, upperMs: 5, count: 1, share: 0.25 },
    ]);
  });

  it("merges many buckets into equal-width bins, empty bins included, counts preserved", () => {
    // Locust-style exact values 1..100 ms (100 buckets), one call each, plus 20 calls at 7 ms.
    const buckets = Array.from({ length: 100 }, (_, i) => ({ upperMs: i + 1, count: i + 1 === 7 ? 21 : 1 }));
    buckets.push({ upperMs: 250, count: 2 });
    const bars = toHistogramBars(buckets, 40);
    // (250 − 1) / 40 = 6.2 → a 10 ms step from 0: bins (0,10], (10,20] … (240,250].
    expect(bars).toHaveLength(25);
    expect(bars[0]).toEqual({ lowerMs: 0, upperMs: 10, count: 30, share: 30 / 122 });
    expect(bars[1]).toMatchObject({ lowerMs: 10, upperMs: 20, count: 10 });
    expect(bars[12]).toMatchObject({ lowerMs: 120, upperMs: 130, count: 0 });
    expect(bars[24]).toMatchObject({ lowerMs: 240, upperMs: 250, count: 2 });
    expect(bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(122);
  });

  it("is empty for no buckets or no counts", () => {
    expect(toHistogramBars([])).toEqual([]);
    expect(toHistogramBars([{ upperMs: 1, count: 0 }])).toEqual([]);
  });
});

describe("small helpers", () => {
  it("niceStep picks 1-2-5 steps", () => {
    expect(niceStep(6.2)).toBe(10);
    expect(niceStep(1.5)).toBe(2);
    expect(niceStep(0.03)).toBe(0.05);
    expect(niceStep(5)).toBe(5);
    expect(niceStep(0)).toBe(1);
  });

  it("statusToneOf reads HTTP and gRPC codes", () => {
    expect(statusToneOf("OK")).toBe("good");
    expect(statusToneOf("200")).toBe("good");
    expect(statusToneOf("503")).toBe("bad");
    expect(statusToneOf("Unavailable")).toBe("bad");
    expect(statusToneOf("0")).toBe("neutral");
  });

  it("safeHttpUrl links only http(s)", () => {
    expect(safeHttpUrl("https://ci.example/build/1")).toBe("https://ci.example/build/1");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });

  it("runTitle", () => {
    expect(runTitle({ label: "baseline", round: 1, tool: "ghz" })).toBe("baseline #1");
    expect(runTitle({ label: "baseline", round: null, tool: "ghz" })).toBe("baseline");
    expect(runTitle({ label: null, round: null, tool: "k6" })).toBe("k6 run");
  });
});

describe("toRunReport on the ghz baseline round 1", () => {
  const { run } = parseUpload({ files: ghzFiles() });
  run.label = "baseline";
  run.round = 1;
  run.environment.git = { commit: "9f1c2e7abcdef", branch: "main", pullRequest: 42, repoUrl: null };
  run.environment.ci.buildUrl = "javascript:alert(1)";
  const report = toRunReport(
    { slug: "list ings", name: "Listings", repoUrl: "https://github.com/acme/listings/" },
    { id: "run1", uploadedAt: new Date("2026-11-22T10:00:00Z") },
    run,
  );

  it("has one row per method with the report's own numbers, and the aggregate apart", () => {
    expect(report.endpoints.map((row) => row.name)).toEqual(GHZ_METHODS);
    const getListing = JSON.parse(readFixture("ghz/baseline/round1/GetListing.json")) as {
      count: number;
      rps: number;
      latencyDistribution: { percentage: number; latency: number }[];
    };
    const row = report.endpoints[0]!;
    expect(row).toMatchObject({
      displayName: "GetListing",
      fullName: "listings.v1.ListingService.GetListing",
      href: "/projects/list%20ings/endpoints/GetListing",
      requests: getListing.count,
      requestsPerSecond: getListing.rps,
      isAggregate: false,
    });
    expect(row.p95Ms).toBe(getListing.latencyDistribution.find((d) => d.percentage === 95)!.latency / 1e6);
    expect(row.p90Ms).not.toBeNull();
    expect(report.aggregate).toMatchObject({ isAggregate: true, displayName: "All endpoints", href: null });
    expect(report.aggregate.requests).toBe(report.endpoints.reduce((sum, r) => sum + (r.requests ?? 0), 0));
  });

  it("builds links, and only from http(s) URLs", () => {
    expect(report.run.title).toBe("baseline #1");
    expect(report.run.git).toMatchObject({
      commitShort: "9f1c2e7",
      commitUrl: "https://github.com/acme/listings/commit/9f1c2e7abcdef",
      pullRequestUrl: "https://github.com/acme/listings/pull/42",
    });
    expect(report.run.buildUrl).toBeNull();
    expect(report.links).toEqual({
      raw: "/api/v1/projects/list%20ings/runs/run1/raw",
      json: "/api/v1/projects/list%20ings/runs/run1",
    });
    expect(report.run.protocol).toBe("grpc");
    expect(report.run.config.find((entry) => entry.key === "protocol")).toBeUndefined();
  });

  it("has a histogram per method, status codes, errors and the shutdown notes", () => {
    expect(report.histograms.map((h) => h.endpoint)).toEqual(GHZ_METHODS);
    for (const histogram of report.histograms) {
      expect(histogram.total).toBe(histogram.bars.reduce((sum, bar) => sum + bar.count, 0));
    }
    expect(report.statusCodes.find((s) => s.endpoint === "GetListing")?.codes[0]).toMatchObject({ code: "OK", tone: "good" });
    expect(report.errors.every((error) => error.count > 0)).toBe(true);
    expect(report.run.notes.length).toBeGreaterThan(0);
    expect(report.thresholds).toEqual([]);
  });
});

describe("toRunReport on a k6 summary", () => {
  it("carries thresholds and checks with pass rates", () => {
    const { run } = parseUpload({ files: [{ name: "summary.json", text: readFixture("k6/baseline/round1/summary.json") }] });
    const report = toRunReport({ slug: "p", name: "p", repoUrl: null }, { id: "r", uploadedAt: new Date() }, run);
    expect(report.thresholds.length).toBeGreaterThan(0);
    for (const check of report.checks) {
      const total = check.passes + check.fails;
      expect(check.passRate).toBe(total > 0 ? check.passes / total : null);
    }
    expect(report.run.git.commitUrl).toBeNull();
  });
});

describe.each(testDatabaseTargets())("run.get on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  it("returns the stored run's report, and null for an unknown run or project", async () => {
    const slug = uniqueSlug("report");
    const upload = uploadOfFiles(
      ghzFiles().map(({ name, text }) => ({ name, contentType: "application/json", bytes: Buffer.from(text) })),
    );
    const outcome = await ingestRun(database.prisma, {
      projectSlug: slug,
      createProjectIfMissing: true,
      upload,
      format: null,
      metadata: { label: "baseline", round: 1 },
      idempotencyKey: null,
    });
    const caller = createCaller({ db: database.prisma });

    const report = await caller.run.get({ project: slug, id: outcome.runId });
    expect(report?.run).toMatchObject({ id: outcome.runId, title: "baseline #1", tool: "ghz", format: "ghz" });
    expect(report?.endpoints.map((row) => row.name)).toEqual(GHZ_METHODS);
    expect(report?.histograms).toHaveLength(5);

    expect(await caller.run.get({ project: slug, id: "no-such-run" })).toBeNull();
    expect(await caller.run.get({ project: uniqueSlug("missing"), id: outcome.runId })).toBeNull();
  });
});
