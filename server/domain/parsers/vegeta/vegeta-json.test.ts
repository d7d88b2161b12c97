import { describe, expect, it } from "vitest";
import { VEGETA_BASELINE, vegetaJsonFixture } from "../fixtures/vegeta-report-view";
import { parseVegetaJson } from "./vegeta-json";

const JSON_FILES = [`${VEGETA_BASELINE}/report.json`, "vegeta/managedasync/round1/report.json"];

describe.each(JSON_FILES)("vegeta JSON report %s", (path) => {
  const { document, report } = vegetaJsonFixture(path);
  const run = parseVegetaJson(document);

  it("puts the whole attack on the aggregate, in ms", () => {
    expect(run.format).toBe("vegeta-json");
    expect(run.tool).toBe("vegeta");
    expect(run.endpoints).toEqual([]);
    const { aggregate } = run;
    expect(aggregate.name).toBe("(all)");
    expect(aggregate.protocol).toBe("http");
    expect(aggregate.requests).toBe(report.requests);
    expect(aggregate.latency.minMs).toBe((report.latencies.min ?? 0) / 1e6);
    expect(aggregate.latency.meanMs).toBe((report.latencies.mean ?? 0) / 1e6);
    expect(aggregate.latency.maxMs).toBe((report.latencies.max ?? 0) / 1e6);
    expect(aggregate.latency.stdDevMs).toBeNull();
    expect(aggregate.latency.percentiles).toEqual({
      "50": (report.latencies["50th"] ?? 0) / 1e6,
      "90": (report.latencies["90th"] ?? 0) / 1e6,
      "95": (report.latencies["95th"] ?? 0) / 1e6,
      "99": (report.latencies["99th"] ?? 0) / 1e6,
    });
    expect(aggregate.histogram).toBeNull();
  });

  it("counts failures from the status codes, as vegeta's success ratio does", () => {
    const failed = Object.entries(report.status_codes).filter(([code]) => !(Number(code) >= 200 && Number(code) < 400));
    const failures = failed.reduce((sum, [, n]) => sum + n, 0);
    expect(failures).toBeGreaterThan(0);
    expect(run.aggregate.failures).toBe(failures);
    expect((report.requests - failures) / report.requests).toBeCloseTo(report.success, 12);
    expect(run.aggregate.statusCodes).toEqual(report.status_codes);
    expect(run.aggregate.errors).toBeNull(); // vegeta does not count its errors
    for (const error of report.errors) expect(run.notes.join(" ")).toContain(error);
    expect(run.notes.join(" ")).not.toContain("disagrees");
  });

  it("takes throughput from rate (all requests/s) and keeps vegeta's throughput apart", () => {
    expect(run.aggregate.throughput).toBe(report.rate);
    expect(report.rate).toBeCloseTo(report.requests / (report.duration / 1e9), 9);
    expect(run.metrics.success_throughput).toEqual({ value: report.throughput, unit: "req/s", better: "higher" });
    expect(run.startedAt).toBe(new Date(report.earliest).toISOString());
    expect(run.durationSeconds).toBe((report.duration + report.wait) / 1e9);
    expect(run.environment.config).toEqual({ protocol: "http" }); // nothing measured in the load profile
  });
});

describe("vegeta JSON variants", () => {
  const { document } = vegetaJsonFixture(`${VEGETA_BASELINE}/report.json`);
  const base = document as Record<string, unknown>;

  it("reads other codes, percentiles and numbers the same way", () => {
    const variant = {
      ...base,
      latencies: { total: 5e9, mean: 5e6, "50th": 4e6, "99.9th": 9e7, max: 1e8, min: 1e6 },
      requests: 1000,
      rate: 50.5,
      throughput: 40,
      success: 0.9,
      status_codes: { "0": 20, "200": 850, "301": 50, "404": 30, "503": 50 },
      errors: ['Get "http://x/": context deadline exceeded', "404 Not Found", "503 Service Unavailable"],
    };
    const run = parseVegetaJson(variant);
    expect(run.aggregate.failures).toBe(100);
    expect(run.aggregate.throughput).toBe(50.5);
    expect(run.aggregate.latency.percentiles).toEqual({ "50": 4, "99.9": 90 });
    expect(run.notes).toEqual([
      'vegeta listed 3 distinct errors without counting them: "Get "http://x/": context deadline exceeded"; "404 Not Found"; "503 Service Unavailable".',
    ]);
    const disagreeing = parseVegetaJson({ ...variant, success: 0.95 });
    expect(disagreeing.aggregate.failures).toBe(100);
    expect(disagreeing.notes.join(" ")).toContain("disagrees");
  });

  it("leaves an attack without requests empty instead of zero", () => {
    const zero = "0001-01-01T00:00:00Z";
    const latencies = { total: 0, mean: 0, "50th": 0, "90th": 0, "95th": 0, "99th": 0, max: 0, min: 0 };
    const empty = {
      latencies,
      earliest: zero,
      latest: zero,
      end: zero,
      duration: 0,
      wait: 0,
      requests: 0,
      rate: 0,
      throughput: 0,
      success: 0,
      status_codes: {},
      errors: [],
    };
    const run = parseVegetaJson(empty);
    expect(run.aggregate.requests).toBe(0);
    expect(run.aggregate.failures).toBe(0);
    expect(run.aggregate.throughput).toBeNull();
    expect(run.aggregate.latency).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
    expect(run.startedAt).toBeNull();
    expect(run.durationSeconds).toBeNull();
    expect(run.metrics).toEqual({});
  });
});
