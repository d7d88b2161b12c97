import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError } from "../../input-error";
import { filesIn, readFixtureJson, roundsOf } from "../fixtures/read-fixture";
import { parseGhz } from "./ghz";

const reportView = z.object({
  count: z.number(),
  rps: z.number(),
  average: z.number(),
  fastest: z.number(),
  slowest: z.number(),
  statusCodeDistribution: z.record(z.string(), z.number()),
  errorDistribution: z.record(z.string(), z.number()).nullish(),
  latencyDistribution: z.array(z.object({ percentage: z.number(), latency: z.number() })),
  histogram: z.array(z.object({ mark: z.number(), count: z.number() })),
  details: z.array(z.object({ latency: z.number(), status: z.string() })),
});

/** The test's own reading of an HDR histogram: each bucket's cumulative count equals the OK calls at or under its edge. */
function expectHistogramOfCalls(histogram: readonly { upperMs: number; count: number }[] | null | undefined, okNs: readonly number[]): void {
  expect(histogram).not.toBeNull();
  const okMicroseconds = okNs.map((ns) => Math.round(ns / 1000));
  let cumulative = 0;
  for (const bucket of histogram ?? []) {
    cumulative += bucket.count;
    expect(okMicroseconds.filter((us) => us <= Math.round(bucket.upperMs * 1000)).length).toBe(cumulative);
  }
  expect(cumulative).toBe(okNs.length);
}

/** One report checked against its own numbers (shared by the JSON rounds and the `-O pretty` files). */
function expectReportReadBack(path: string, method: string, variant: string): void {
  const document = readFixtureJson(path); // the -O pretty .txt files are indented JSON too
  const report = reportView.parse(document);
  const run = parseGhz(document);
  const [endpoint] = run.endpoints;
  expect(run.format).toBe("ghz");
  expect(run.endpoints).toHaveLength(1);
  expect(endpoint?.name).toBe(method);
  expect(endpoint?.fullName).toBe(`listings.v1.ListingService.${method}`);
  expect(endpoint?.protocol).toBe("grpc");
  for (const { percentage, latency } of report.latencyDistribution) {
    expect(endpoint?.latency.percentiles[String(percentage)]).toBe(latency / 1e6);
  }
  expect(endpoint?.latency.meanMs).toBe(report.average / 1e6);
  expect(endpoint?.latency.minMs).toBe(report.fastest / 1e6);
  expect(endpoint?.latency.maxMs).toBe(report.slowest / 1e6);
  expect(endpoint?.requests).toBe(report.count);
  expect(endpoint?.failures).toBe(report.count - (report.statusCodeDistribution.OK ?? 0));
  expect(endpoint?.throughput).toBe(report.rps);
  expect(endpoint?.statusCodes).toEqual(report.statusCodeDistribution);
  expect(endpoint?.errors).toEqual(report.errorDistribution ?? null);
  // details[] is complete in these files, so the HDR histogram of the OK calls replaces ghz's linear one;
  // both hold every OK call and nothing else.
  const ok = report.details.filter((d) => d.status === "OK").map((d) => d.latency);
  expect(report.histogram.reduce((sum, b) => sum + b.count, 0)).toBe(report.statusCodeDistribution.OK);
  expect(ok).toHaveLength(report.statusCodeDistribution.OK ?? 0);
  expectHistogramOfCalls(endpoint?.histogram, ok);
  // ghz's `average` is the mean of ALL calls' latencies (errors included), truncated to the ns;
  // fastest/slowest are those of the OK calls.
  const all = report.details.map((d) => d.latency);
  expect(Math.abs(all.reduce((a, b) => a + b, 0) / all.length - report.average)).toBeLessThan(1);
  expect(Math.abs(Math.min(...ok) - report.fastest)).toBeLessThanOrEqual(1); // ns rounding in ghz
  expect(Math.abs(Math.max(...ok) - report.slowest)).toBeLessThanOrEqual(1);
  expect(run.aggregate.latency.percentiles).toEqual(endpoint?.latency.percentiles);
  expect(run.aggregate.histogram).toEqual(endpoint?.histogram);
  expect(run.environment.config).toMatchObject({ concurrency: 10, connections: 1, rps: 100, durationSeconds: 10, host: "127.0.0.1:18081", protocol: "grpc" });
  expect(run.environment.attributes).toMatchObject({ method, variant });
}

describe.each(roundsOf("ghz"))("ghz reports of %s", (round) => {
  const files = filesIn(`ghz/${round}`);

  it.each(files)("reads %s back in ms", (file) => {
    expectReportReadBack(`ghz/${round}/${file}`, file.replace(/\.json$/, ""), round.split("/")[0] ?? "");
  });

  it("combines the five reports into one run", () => {
    const documents = files.map((file) => readFixtureJson(`ghz/${round}/${file}`));
    const reports = documents.map((d) => reportView.parse(d));
    const run = parseGhz(documents);
    expect(run.endpoints.map((e) => e.name)).toEqual(files.map((f) => f.replace(/\.json$/, "")));
    expect(run.aggregate.requests).toBe(reports.reduce((sum, r) => sum + r.count, 0));
    const okTotal = reports.reduce((sum, r) => sum + (r.statusCodeDistribution.OK ?? 0), 0);
    expect(run.aggregate.failures).toBe((run.aggregate.requests ?? 0) - okTotal);
    // Exact percentiles of every OK call (the details cover all calls in these files).
    const ok = reports.flatMap((r) => r.details.filter((d) => d.status === "OK").map((d) => d.latency / 1e6)).sort((a, b) => a - b);
    const rank = 0.95 * (ok.length - 1);
    const p95 = (ok[Math.floor(rank)] ?? 0) + ((ok[Math.ceil(rank)] ?? 0) - (ok[Math.floor(rank)] ?? 0)) * (rank % 1);
    expect(run.aggregate.latency.percentiles["95"]).toBeCloseTo(p95, 9);
    expect(run.aggregate.latency.minMs).toBe(Math.min(...reports.map((r) => r.fastest)) / 1e6);
    const weightedMean = reports.reduce((sum, r) => sum + (r.average / 1e6) * r.count, 0) / reports.reduce((sum, r) => sum + r.count, 0);
    expect(run.aggregate.latency.meanMs).toBeCloseTo(weightedMean, 9);
    // The HDR histogram of every OK call of the five reports, pooled exactly.
    expectHistogramOfCalls(run.aggregate.histogram, reports.flatMap((r) => r.details.filter((d) => d.status === "OK").map((d) => d.latency)));
    // The reports ran one after another (~10 s each), so the run spans ~50 s at ~100 calls/s overall.
    expect(run.durationSeconds).toBeGreaterThan(48);
    expect(run.aggregate.throughput).toBeGreaterThan(90);
    expect(run.aggregate.throughput).toBeLessThan(110);
    expect(run.environment.attributes.method).toBeUndefined(); // differs per report
    expect(run.environment.config.call).toBeUndefined();
  });
});

describe("ghz -O pretty reports (baseline round1-pretty: separate runs, indented JSON)", () => {
  it.each(filesIn("ghz/baseline/round1-pretty"))("reads %s as a ghz report with its own numbers", (file) => {
    expectReportReadBack(`ghz/baseline/round1-pretty/${file}`, file.replace(/\.txt$/, ""), "baseline");
  });
});

describe("ghz notes and start time", () => {
  it("explains Canceled/Unavailable calls at shutdown and takes the start from the first call", () => {
    const run = parseGhz(readFixtureJson("ghz/managedasync/round1/SearchListings.json"));
    expect(run.notes).toEqual([
      "SearchListings: 4 Canceled and 2 Unavailable — calls still in flight when the run's duration ran out (ghz closes the connection); counted as failures, not server errors.",
    ]);
    expect(run.startedAt).toBe("2026-11-22T09:59:19.192Z");
    expect(run.endpoints[0]?.failures).toBe(13);
  });

  it("leaves aggregate percentiles empty when details do not cover every call", () => {
    const documents = ["GetListing", "ListListings"].map((m) => {
      const report = z.looseObject({ details: z.array(z.unknown()) }).parse(readFixtureJson(`ghz/baseline/round1/${m}.json`));
      return { ...report, details: report.details.slice(0, 10) };
    });
    const run = parseGhz(documents);
    expect(run.aggregate.latency.percentiles).toEqual({});
    expect(run.aggregate.latency.meanMs).not.toBeNull();
    expect(run.aggregate.histogram).toBeNull();
    expect(run.endpoints[0]?.latency.stdDevMs).toBeNull();
    // Incomplete details: ghz's own linear histogram stays, marks in seconds → ms.
    const own = reportView.parse(readFixtureJson("ghz/baseline/round1/GetListing.json")).histogram;
    expect(run.endpoints[0]?.histogram).toEqual(own.map((b) => ({ upperMs: b.mark * 1000, count: b.count })));
  });

  it("rejects a report with nanoseconds as text, naming the path", () => {
    const report = z.looseObject({}).parse(readFixtureJson("ghz/baseline/round1/GetListing.json"));
    try {
      parseGhz({ ...report, average: "27ms" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      if (error instanceof InputError) expect(error.code).toBe("malformed");
    }
  });
});
