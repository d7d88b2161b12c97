import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emptyEndpoint, type ParsedRun } from "../run";
import { parseBenchtrack } from "./benchtrack/benchtrack";
import { nameByMethod, parseUpload } from "./index";
import { validateParsedRun } from "./validate";
import { errorOf } from "./fixtures/input-error-of";

const GHZ_DIR = path.join(import.meta.dirname, "fixtures", "ghz", "baseline", "round1");

const base = (): ParsedRun => parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "a", requests: 1 }] });

describe("validateParsedRun", () => {
  it("passes a normal run through unchanged", () => {
    const run = base();
    expect(validateParsedRun(run)).toBe(run);
  });

  it("refuses 10,000 endpoints as too_large at endpoints", () => {
    const run = { ...base(), endpoints: Array.from({ length: 10_000 }, (_, i) => emptyEndpoint(`e${i}`)) };
    const error = errorOf(() => validateParsedRun(run));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("endpoints");
  });

  it("refuses a 1 MB endpoint name and a long label", () => {
    const run = base();
    const named = { ...run, endpoints: [emptyEndpoint("x".repeat(1_000_000))] };
    expect(errorOf(() => validateParsedRun(named)).details[0]).toEqual({ path: "endpoints[0].name", message: "1000000 characters; the limit is 512" });
    expect(errorOf(() => validateParsedRun({ ...run, label: "y".repeat(1025) })).details[0]?.path).toBe("label");
  });

  it("refuses 10^6 checks (once stored, a 46-second, 532 MB page), too many thresholds or notes", () => {
    const run = base();
    const checks = Array.from({ length: 1_000_001 }, (_, i) => ({ name: `c${i}`, group: null, passes: 1, fails: 0 }));
    const error = errorOf(() => validateParsedRun({ ...run, checks }));
    expect(error.code).toBe("too_large");
    expect(error.details[0]).toEqual({ path: "checks", message: "1000001 checks; the limit is 1000" });
    const thresholds = Array.from({ length: 1_001 }, () => ({ metric: "m", expression: "p(95)<1", passed: true }));
    expect(errorOf(() => validateParsedRun({ ...run, thresholds })).details[0]?.path).toBe("thresholds");
    expect(errorOf(() => validateParsedRun({ ...run, notes: Array.from({ length: 201 }, () => "n") })).details[0]?.path).toBe("notes");
  });

  it("refuses text the database cannot store, and counts beyond 32 bits, with their paths", () => {
    const run = base();
    const nul = { ...run, environment: { ...run.environment, attributes: { "db\u0000": "pg" } } };
    expect(errorOf(() => validateParsedRun(nul)).details[0]).toEqual({
      path: "environment.attributes.db\\u0000",
      message: "its key contains a NUL character (\\u0000), which cannot be stored",
    });
    const endpoint = { ...emptyEndpoint("e"), requests: 3e9 };
    expect(errorOf(() => validateParsedRun({ ...run, endpoints: [endpoint] })).details[0]?.path).toBe("endpoints[0].requests");
  });

  it("refuses a histogram whose upper edge repeats: it makes no bucket, and pooling or reading it cannot place the count", () => {
    const run = parseBenchtrack({
      schema: "benchtrack/v1",
      endpoints: [{ name: "a", requests: 1000, histogram: { unit: "ms", buckets: [{ le: 10, count: 800 }, { le: 5, count: 100 }, { le: 5, count: 100 }] } }],
    });
    const error = errorOf(() => validateParsedRun(run));
    expect(error.code).toBe("malformed");
    // The endpoint's first (the run's aggregate, drawn from its one endpoint, repeats it).
    expect(error.details[0]).toEqual({
      path: "endpoints[0].histogram[1].upperMs",
      message: "5 ms repeats or falls below the bucket before it (5 ms): a histogram's upper edges ascend, each once",
    });
    // Buckets in any order, each edge once, are the histogram sorted.
    const fine = parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "a", requests: 900, histogram: { unit: "ms", buckets: [{ le: 10, count: 800 }, { le: 5, count: 100 }] } }] });
    expect(validateParsedRun(fine).endpoints[0]?.histogram).toEqual([{ upperMs: 5, count: 100 }, { upperMs: 10, count: 800 }]);
  });

  it("refuses more than 100 attributes", () => {
    const run = base();
    const attributes = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, "v"]));
    const error = errorOf(() => validateParsedRun({ ...run, environment: { ...run.environment, attributes } }));
    expect(error.code).toBe("too_large");
    expect(error.details[0]?.path).toBe("environment.attributes");
  });

  it("refuses NaN, Infinity and negative numbers as malformed with paths", () => {
    const run = base();
    const endpoint = { ...emptyEndpoint("a"), requests: -1, throughput: Number.NaN };
    endpoint.latency.percentiles["95"] = Number.POSITIVE_INFINITY;
    const error = errorOf(() => validateParsedRun({ ...run, endpoints: [endpoint] }));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toEqual(["endpoints[0].requests", "endpoints[0].throughput", "endpoints[0].latency.percentiles.95"]);
  });

  it("allows a negative custom metric (a delta) but not an infinite one", () => {
    const run = base();
    expect(() => validateParsedRun({ ...run, metrics: { delta: { value: -3, unit: null, better: "higher" } } })).not.toThrow();
    expect(errorOf(() => validateParsedRun({ ...run, metrics: { delta: { value: Number.NEGATIVE_INFINITY, unit: null, better: "higher" } } })).code).toBe("malformed");
  });
});

describe("one result per endpoint", () => {
  it("refuses a ghz report sent twice in one upload, naming both", () => {
    const report = readFileSync(path.join(GHZ_DIR, readdirSync(GHZ_DIR).find((name) => name.endsWith(".json"))!), "utf8");
    const error = errorOf(() => parseUpload({ files: [{ name: "a.json", text: report }, { name: "b.json", text: report }], format: null }));
    expect(error.code).toBe("wrong_format");
    expect(error.details[0]?.path).toBe("endpoints[1]");
    expect(error.details[0]?.message).toMatch(/is also endpoints\[0\]/);
  });

  it("names endpoints of one name by method when methods differ (Locust's GET and POST /items)", () => {
    const run = base();
    const endpoints = [
      { ...emptyEndpoint("/items"), method: "GET" },
      { ...emptyEndpoint("/items"), method: "POST" },
      { ...emptyEndpoint("/health"), method: "GET" },
    ];
    expect(nameByMethod({ ...run, endpoints }).endpoints.map((endpoint) => endpoint.name)).toEqual(["GET /items", "POST /items", "/health"]);
    expect(() => validateParsedRun(nameByMethod({ ...run, endpoints }))).not.toThrow();
  });
});
