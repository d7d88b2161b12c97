import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../../run";
import { artilleryReportSchema, parseArtilleryJson } from "./artillery-json";
import { countersUnder, failuresOf, PLUGIN, reportOf, sumOf, type Report } from "../fixtures/artillery-outputs";
import { errorOf } from "../fixtures/input-error-of";

/** A summary's percentiles under the keys Benchtrack gives them (artillery's `p999` is p99.9). */
function percentilesOf(summary: Record<string, number>): Record<string, number | undefined> {
  return {
    "50": summary.p50,
    "75": summary.p75,
    "90": summary.p90,
    "95": summary.p95,
    "99": summary.p99,
    "99.9": summary.p999,
  };
}

describe.each(["baseline", "managedasync"])("artillery report.json of %s", (variant) => {
  const report = reportOf(variant);
  const run = parseArtilleryJson(report);
  const { aggregate } = report;
  const spanSeconds = (aggregate.lastMetricAt - aggregate.firstMetricAt) / 1000;
  const names = Object.keys(aggregate.summaries)
    .filter((k) => k.startsWith(`${PLUGIN}response_time.`))
    .map((k) => k.slice(`${PLUGIN}response_time.`.length));

  it("reads the aggregate from http.* and errors.*", () => {
    expect(run.format).toBe("artillery-json");
    expect(run.tool).toBe("artillery");
    const codes = countersUnder(aggregate.counters, "http.codes.");
    const errors = countersUnder(aggregate.counters, "errors.");
    expect(run.aggregate.name).toBe(AGGREGATE_NAME);
    expect(run.aggregate.protocol).toBe("http");
    expect(run.aggregate.requests).toBe(aggregate.counters["http.requests"]);
    expect(run.aggregate.failures).toBe(failuresOf(codes, errors));
    expect(run.aggregate.failures).toBeGreaterThan(0); // each run had injected 500s
    expect(run.aggregate.statusCodes).toEqual(codes);
    expect(run.aggregate.errors).toEqual(errors);
    expect(run.aggregate.throughput).toBeCloseTo((aggregate.counters["http.requests"] ?? 0) / spanSeconds, 9);
    const summary = aggregate.summaries["http.response_time"] ?? {};
    expect(run.aggregate.latency).toEqual({
      minMs: summary.min,
      meanMs: summary.mean,
      maxMs: summary.max,
      stdDevMs: null,
      percentiles: percentilesOf(summary),
    });
    expect(run.startedAt).toBe(new Date(aggregate.firstMetricAt).toISOString());
    expect(run.durationSeconds).toBe(spanSeconds);
    expect(run.environment.config).toEqual({ protocol: "http" });
  });

  it("reads one endpoint per metrics-by-endpoint summary", () => {
    expect(run.endpoints.map((e) => e.name)).toEqual(names);
    expect(names).toHaveLength(5);
    for (const endpoint of run.endpoints) {
      const summary = aggregate.summaries[`${PLUGIN}response_time.${endpoint.name}`] ?? {};
      const codes = countersUnder(aggregate.counters, `${PLUGIN}${endpoint.name}.codes.`);
      const errors = countersUnder(aggregate.counters, `${PLUGIN}${endpoint.name}.errors.`);
      expect(endpoint.protocol).toBe("http");
      expect(endpoint.method).toBeNull();
      expect(endpoint.requests).toBe((summary.count ?? 0) + sumOf(Object.values(errors)));
      expect(endpoint.requests).toBe(sumOf(Object.values(codes))); // no errors in these runs: every request answered
      expect(endpoint.failures).toBe(failuresOf(codes, errors));
      expect(endpoint.statusCodes).toEqual(codes);
      expect(endpoint.throughput).toBeCloseTo((endpoint.requests ?? 0) / spanSeconds, 9);
      expect(endpoint.latency.minMs).toBe(summary.min);
      expect(endpoint.latency.maxMs).toBe(summary.max);
      expect(endpoint.latency.meanMs).toBe(summary.mean);
      expect(endpoint.latency.percentiles).toEqual(percentilesOf(summary));
    }
    expect(sumOf(run.endpoints.map((e) => e.requests ?? 0))).toBe(run.aggregate.requests);
    expect(sumOf(run.endpoints.map((e) => e.failures ?? 0))).toBe(run.aggregate.failures);
  });

  it("turns each intermediate period into a timeline point", () => {
    const periods = report.intermediate;
    const timelines = [run.aggregate.timeline, ...run.endpoints.map((e) => e.timeline)];
    for (const timeline of timelines) expect(timeline).toHaveLength(periods.length);
    periods.forEach((period, index) => {
      const start = Math.max(Number(period.period), aggregate.firstMetricAt);
      const end = Math.min(Number(period.period) + 10_000, aggregate.lastMetricAt);
      const point = run.aggregate.timeline?.[index];
      const summary = period.summaries["http.response_time"] ?? {};
      expect(point?.atMs).toBe(end);
      expect((point?.requestsPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(
        period.counters["http.requests"] ?? 0,
        9,
      );
      expect((point?.failuresPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(
        failuresOf(countersUnder(period.counters, "http.codes."), {}),
        9,
      );
      expect(point?.p50Ms).toBe(summary.p50);
      expect(point?.p95Ms).toBe(summary.p95);
      expect(point?.users).toBeNull(); // artillery reports arrivals, not concurrent users
      for (const endpoint of run.endpoints) {
        const own = endpoint.timeline?.[index];
        const endpointSummary = period.summaries[`${PLUGIN}response_time.${endpoint.name}`];
        expect((own?.requestsPerSecond ?? 0) * ((end - start) / 1000)).toBeCloseTo(endpointSummary?.count ?? 0, 9);
        expect(own?.p95Ms).toBe(endpointSummary?.p95 ?? null);
      }
    });
    // Full windows are 10 s; the first and last are cut by the run's start and end.
    expect(run.aggregate.timeline?.at(-1)?.atMs).toBe(aggregate.lastMetricAt);
  });

  it("keeps the vusers counts and session length as run metrics", () => {
    expect(run.metrics).toEqual({
      "vusers.created": { value: aggregate.counters["vusers.created"], unit: "vusers", better: null },
      "vusers.completed": { value: aggregate.counters["vusers.completed"], unit: "vusers", better: null },
      "vusers.failed": { value: aggregate.counters["vusers.failed"], unit: "vusers", better: "lower" },
      "vusers.session_length mean": {
        value: aggregate.summaries["vusers.session_length"]?.mean,
        unit: "ms",
        better: null,
      },
    });
    expect(run.thresholds).toEqual([]); // ensure's results are in the console only
    expect(run.notes).toEqual([]);
  });
});

describe("artillery report.json, beyond the fixtures", () => {
  it("reads other names, errors and codes the same way", () => {
    const report = structuredClone(reportOf("baseline"));
    const { counters, summaries } = report.aggregate;
    // Rename GetListing to a path-style name with dots and spaces, as the plugin writes without useOnlyRequestNames.
    const renamed = "/api/v1.2/listings/42 (Get one)";
    for (const key of Object.keys(counters).filter((k) => k.includes(".GetListing."))) {
      counters[key.replace(".GetListing.", `.${renamed}.`)] = counters[key] ?? 0;
      delete counters[key];
    }
    summaries[`${PLUGIN}response_time.${renamed}`] = summaries[`${PLUGIN}response_time.GetListing`] ?? {};
    delete summaries[`${PLUGIN}response_time.GetListing`];
    Object.assign(counters, {
      [`${PLUGIN}${renamed}.errors.ETIMEDOUT`]: 3,
      [`${PLUGIN}${renamed}.codes.404`]: 2,
      [`${PLUGIN}OnlyErrors.errors.ECONNREFUSED`]: 4,
      "errors.ETIMEDOUT": 3,
      "errors.ECONNREFUSED": 4,
      "http.codes.404": 2,
      "http.requests": (counters["http.requests"] ?? 0) + 7,
    });
    const run = parseArtilleryJson(report);
    const endpoint = run.endpoints.find((e) => e.name === renamed);
    const summary = summaries[`${PLUGIN}response_time.${renamed}`] ?? {};
    expect(endpoint?.requests).toBe((summary.count ?? 0) + 3);
    expect(endpoint?.failures).toBe(3 + 2);
    expect(endpoint?.errors).toEqual({ ETIMEDOUT: 3 });
    expect(endpoint?.statusCodes).toMatchObject({ "404": 2 });
    const onlyErrors = run.endpoints.find((e) => e.name === "OnlyErrors");
    expect(onlyErrors).toMatchObject({ requests: 4, failures: 4, errors: { ECONNREFUSED: 4 }, statusCodes: {} });
    expect(onlyErrors?.latency.percentiles).toEqual({});
    expect(run.aggregate.requests).toBe(607);
    expect(run.aggregate.failures).toBe(1 + 2 + 3 + 4);
    expect(run.notes.join(" ")).toContain("7 error(s) (ETIMEDOUT ×3, ECONNREFUSED ×4)");
  });

  it("counts requests that all failed to connect", () => {
    const report = structuredClone(reportOf("baseline"));
    report.aggregate.counters = { "errors.ECONNREFUSED": 12, "vusers.created": 12, "vusers.failed": 12 };
    report.aggregate.summaries = {};
    const run = parseArtilleryJson(report);
    expect(run.aggregate).toMatchObject({ requests: 12, failures: 12, errors: { ECONNREFUSED: 12 }, statusCodes: {} });
    expect(run.aggregate.latency.minMs).toBeNull();
    expect(run.metrics["vusers.failed"]).toEqual({ value: 12, unit: "vusers", better: "lower" });
  });

  it("never counts more failures than requests: a failed capture falls on a response already counted as 404", () => {
    const report = structuredClone(reportOf("baseline"));
    report.aggregate.counters = { "http.requests": 10, "http.codes.404": 10, "errors.Failed capture or match": 10 };
    report.aggregate.summaries = {};
    report.intermediate = [];
    const run = parseArtilleryJson(report);
    expect(run.aggregate).toMatchObject({ requests: 10, failures: 10 });
    expect(run.notes.join(" ")).toContain("All endpoints: artillery counted 20 failures");
  });

  it("keeps the aggregate only when the plugin is off", () => {
    const report = structuredClone(reportOf("baseline"));
    for (const period of [report.aggregate, ...report.intermediate]) {
      for (const key of Object.keys(period.counters)) if (key.startsWith(PLUGIN)) delete period.counters[key];
      for (const key of Object.keys(period.summaries)) if (key.startsWith(PLUGIN)) delete period.summaries[key];
    }
    const run = parseArtilleryJson(report);
    expect(run.endpoints).toEqual([]);
    expect(run.aggregate.requests).toBe(600);
    expect(run.aggregate.timeline).toHaveLength(report.intermediate.length);
    expect(run.notes[0]).toContain("No metrics-by-endpoint data");
  });

  it.each([
    [
      "a counter that is not a number",
      (r: Report) => Object.assign(r.aggregate.counters, { "http.requests": "600" }),
      "aggregate.counters.http.requests",
    ],
    [
      "a period that is not epoch ms",
      (r: Report) => Object.assign(r.intermediate[1] ?? {}, { period: "10:00" }),
      "intermediate[1].period",
    ],
    [
      "a summary statistic of the wrong type",
      (r: Report) => Object.assign(r.aggregate.summaries["http.response_time"] ?? {}, { p95: "22.9ms" }),
      "aggregate.summaries.http.response_time.p95",
    ],
    ["no aggregate", (r: Report) => Object.assign(r, { aggregate: undefined }), "aggregate"],
  ])("refuses %s, naming its JSON path", (_what, change, path) => {
    const report = structuredClone(reportOf("baseline"));
    change(report);
    const error = errorOf(() => parseArtilleryJson(report));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain(path);
  });

  it("exports its wire schema", () => {
    expect(artilleryReportSchema.safeParse(reportOf("managedasync")).success).toBe(true);
  });
});
