import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError } from "../../input-error";
import { readFixtureJson, roundsOf } from "../fixtures/read-fixture";
import { parseK6HandleSummary } from "./k6-handle-summary";
import { parseK6SummaryExport } from "./k6-summary";

// The test reads the files' numbers back through its own minimal view, independent of the parser.
const legacyView = z.object({
  metrics: z.record(z.string(), z.record(z.string(), z.unknown())),
});
const handleView = z.object({
  metrics: z.record(z.string(), z.object({ values: z.record(z.string(), z.number()) })),
  state: z.object({ testRunDurationMs: z.number() }),
});
const num = (value: unknown): number => z.number().parse(value);

const ROUNDS = [...roundsOf("k6"), "baseline/short-ndjson"];

describe.each(ROUNDS)("k6 summaries of %s", (round) => {
  const legacyFile = readFixtureJson(`k6/${round}/summary.json`);
  const handleFile = readFixtureJson(`k6/${round}/handle-summary.json`);
  const legacy = parseK6SummaryExport(legacyFile);
  const handle = parseK6HandleSummary(handleFile);

  it("reads the aggregate exactly as --summary-export wrote it", () => {
    const m = legacyView.parse(legacyFile).metrics;
    const duration = m.http_req_duration ?? {};
    expect(legacy.format).toBe("k6-summary");
    expect(legacy.aggregate.latency.percentiles).toEqual({
      "50": num(duration.med),
      "90": num(duration["p(90)"]),
      "95": num(duration["p(95)"]),
      "99": num(duration["p(99)"]),
    });
    expect(legacy.aggregate.latency.meanMs).toBe(num(duration.avg));
    expect(legacy.aggregate.latency.minMs).toBe(num(duration.min));
    expect(legacy.aggregate.latency.maxMs).toBe(num(duration.max));
    expect(legacy.aggregate.requests).toBe(num(m.http_reqs?.count));
    expect(legacy.aggregate.throughput).toBe(num(m.http_reqs?.rate));
    // `passes` of http_req_failed are the failed requests: passes / (passes + fails) = value.
    expect(legacy.aggregate.failures).toBe(num(m.http_req_failed?.passes));
    expect(num(m.http_req_failed?.passes) / num(m.http_reqs?.count)).toBeCloseTo(num(m.http_req_failed?.value), 12);
    expect(legacy.environment.config.vus_max).toBe(num(m.vus_max?.max));
  });

  it("reads the aggregate exactly as handleSummary wrote it", () => {
    const file = handleView.parse(handleFile);
    const duration = file.metrics.http_req_duration?.values ?? {};
    expect(handle.format).toBe("k6-handle-summary");
    expect(handle.aggregate.latency.percentiles["95"]).toBe(duration["p(95)"]);
    expect(handle.aggregate.latency.percentiles["50"]).toBe(duration.med);
    expect(handle.aggregate.requests).toBe(file.metrics.http_reqs?.values.count);
    expect(handle.aggregate.failures).toBe(file.metrics.http_req_failed?.values.passes);
    expect(handle.durationSeconds).toBe(file.state.testRunDurationMs / 1000);
  });

  it("gives the same run from both files of one k6 run", () => {
    expect(handle.aggregate).toEqual(legacy.aggregate);
    expect(handle.checks).toEqual(legacy.checks);
    expect(handle.thresholds).toEqual(legacy.thresholds);
    expect(handle.metrics).toEqual(legacy.metrics);
    expect(legacy.durationSeconds).toBeCloseTo(handle.durationSeconds ?? 0, 0);
  });

  it("keeps the seven checks (object in one file, array in the other)", () => {
    expect(legacy.checks.map((c) => c.name)).toEqual([
      "GetListing status is 200",
      "GetListing returns the requested id",
      "ListListings status is 200",
      "ListListings has 10 listings",
      "GetAllCategories status is 200",
      "SearchListings status is 200",
      "CheckStockAvailability status is 200",
    ]);
    expect(legacy.checks.every((c) => c.group === null)).toBe(true);
  });

  it("keeps iterations as the only run metrics: built-in timings and data stay dropped, no custom metric here", () => {
    const m = legacyView.parse(legacyFile).metrics;
    expect(legacy.metrics).toEqual({
      iterations: { value: num(m.iterations?.count), unit: "iterations", better: "higher" },
      iterations_per_second: { value: num(m.iterations?.rate), unit: "/s", better: "higher" },
    });
  });

  it("has no per-endpoint data, says so, and invents none", () => {
    // The fixtures only hold the `{expected_response:true}` submetric, which is not an endpoint.
    expect(legacy.endpoints).toEqual([]);
    expect(handle.endpoints).toEqual([]);
    expect(legacy.notes.join(" ")).toMatch(/no per-endpoint submetrics/);
  });
});

describe("k6 thresholds", () => {
  it("baseline passes every threshold", () => {
    const run = parseK6SummaryExport(readFixtureJson("k6/baseline/round1/summary.json"));
    expect(run.thresholds).toHaveLength(4);
    expect(run.thresholds.every((t) => t.passed)).toBe(true);
  });

  it.each(["summary.json", "handle-summary.json"])("managedasync round 1 fails p(95)<35 and p(99)<60 (%s)", (file) => {
    const document = readFixtureJson(`k6/managedasync/round1/${file}`);
    const run = file === "summary.json" ? parseK6SummaryExport(document) : parseK6HandleSummary(document);
    const byExpression = Object.fromEntries(run.thresholds.map((t) => [`${t.metric} ${t.expression}`, t.passed]));
    expect(byExpression).toEqual({
      "http_req_duration p(95)<35": false,
      "http_req_duration p(99)<60": false,
      "http_req_failed rate<0.01": true,
      "checks rate>0.99": true,
    });
  });
});

describe("k6 per-endpoint submetrics", () => {
  const trend = (p95: number) => ({ type: "trend", contains: "time", values: { avg: 5, min: 1, med: 4, max: 9, "p(95)": p95, "p(99.9)": 8.9, count: 10 } });
  const document = {
    root_group: { name: "", path: "", id: "x", groups: [{ name: "Checkout", path: "::Checkout", id: "y", groups: [], checks: [{ name: "paid", path: "::Checkout::paid", id: "z", passes: 3, fails: 1 }] }], checks: [] },
    metrics: {
      http_req_duration: trend(7),
      "http_req_duration{name:GetListing}": trend(6),
      "http_req_duration{expected_response:true}": trend(5),
      "http_reqs{name:GetListing}": { type: "counter", contains: "default", values: { count: 10, rate: 2 } },
      "http_req_failed{name:GetListing}": { type: "rate", contains: "default", values: { rate: 0.1, passes: 1, fails: 9 } },
      "http_req_duration{group:::Checkout}": trend(4),
    },
    state: { testRunDurationMs: 5000 },
  };

  // Changed on purpose: a group sub-metric is no longer an endpoint (a group holds other requests, so it
  // would count them twice); it is kept as run metrics instead. See k6-groups.test.ts for the real files.
  it("maps name-tagged submetrics to endpoints, group ones to run metrics, and keeps every percentile given", () => {
    const run = parseK6HandleSummary(document);
    expect(run.endpoints.map((e) => e.name)).toEqual(["GetListing"]);
    const getListing = run.endpoints[0];
    expect(getListing?.latency.percentiles).toEqual({ "50": 4, "95": 6, "99.9": 8.9 });
    expect(getListing?.requests).toBe(10);
    expect(getListing?.throughput).toBe(2);
    expect(getListing?.failures).toBe(1);
    expect(run.aggregate.latency.percentiles["90"]).toBeUndefined(); // absent stays absent
    expect(run.metrics["http_req_duration{group:::Checkout} avg"]).toEqual({ value: 5, unit: "ms", better: "lower" });
    expect(run.metrics["http_req_duration{group:::Checkout} p(95)"]).toEqual({ value: 4, unit: "ms", better: "lower" });
    // k6's automatic {expected_response:true} sub-metric, named by no threshold, is not kept.
    expect(Object.keys(run.metrics).some((key) => key.includes("expected_response"))).toBe(false);
    expect(run.checks).toEqual([{ name: "paid", group: "::Checkout", passes: 3, fails: 1 }]);
    expect(run.notes).toHaveLength(1);
    expect(run.notes[0]).toMatch(/group sub-metrics are kept as run metrics/);
  });

  it("takes the trend's count as the request count when http_reqs has no such submetric", () => {
    const { "http_reqs{name:GetListing}": _reqs, ...metrics } = document.metrics;
    expect(parseK6HandleSummary({ ...document, metrics }).endpoints[0]?.requests).toBe(10);
  });

  it("names an endpoint whose name tag is a URL by its path and query, with the URL as full name", () => {
    const url = "http://127.0.0.1:18080/api/listings?page=2";
    const run = parseK6HandleSummary({ ...document, metrics: { ...document.metrics, [`http_req_duration{name:${url}}`]: trend(3) } });
    expect(run.endpoints.map((e) => [e.name, e.fullName])).toEqual([["GetListing", null], ["/api/listings?page=2", url]]);
  });
});

describe("k6 summary errors", () => {
  it.each([
    ["wrong types", { root_group: { name: "", path: "" }, metrics: { http_reqs: { count: "many" } } }, "metrics.http_reqs.count"],
    ["no metrics", { root_group: { name: "", path: "" } }, "metrics"],
  ])("rejects %s with the JSON path", (_, document, path) => {
    expect(() => parseK6SummaryExport(document)).toThrow(InputError);
    try {
      parseK6SummaryExport(document);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      if (!(error instanceof InputError)) return;
      expect(error.code).toBe("malformed");
      expect(error.details.map((d) => d.path)).toContain(path);
    }
  });
});
