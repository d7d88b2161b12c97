import { describe, expect, it } from "vitest";
import { detectJsonFormats } from "../detect";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { parseK6HandleSummary } from "./k6-handle-summary";
import { parseK6NewSummary } from "./k6-new-summary";

// k6 1.x `--new-machine-readable-summary`, both files k6 wrote for one run (indented summary.json and
// compact handle-summary.json): the numbers below are the files' own.
const FILES = ["k6/baseline/new-machine-readable-summary/summary.json", "k6/baseline/new-machine-readable-summary/handle-summary.json"];

describe("k6 new machine-readable summary", () => {
  it.each(FILES)("is detected by its shape, and ?format=k6 accepts it (%s)", (file) => {
    expect(detectJsonFormats(readFixtureJson(file))).toEqual(["k6-new-summary"]);
    const upload = parseUpload({ files: [{ name: "summary.json", text: readFixture(file) }], format: "k6" });
    expect(upload.format).toBe("k6-new-summary");
  });

  it.each(FILES)("reads the aggregate as k6 wrote it: p90/p95 keys, rates of matches, counters without rate (%s)", (file) => {
    const run = parseK6NewSummary(readFixtureJson(file));
    expect(run.tool).toBe("k6");
    expect(run.toolVersion).toBe("1.8.1");
    expect(run.durationSeconds).toBeCloseTo(12.447958265, 9);
    expect(run.startedAt).toBe(new Date(Date.parse("2026-11-22T09:45:00.390948047Z") - 12_447.958265).toISOString());
    expect(run.aggregate.latency).toEqual({
      minMs: 1.267745,
      meanMs: 8.408922905263156,
      maxMs: 43.657262,
      stdDevMs: null,
      percentiles: { "50": 6.668077, "90": 16.043505100000015, "95": 20.0480217 },
    });
    expect(run.aggregate.requests).toBe(1140);
    expect(run.aggregate.failures).toBe(1);
    expect(run.aggregate.throughput).toBeCloseTo(1140 / 12.447958265, 9);
    expect(run.environment.config).toMatchObject({ vus: 10, vus_max: 10 });
  });

  it("keeps the seven checks, invents no p99, no threshold and no endpoint, and says so", () => {
    const run = parseK6NewSummary(readFixtureJson(FILES[0]!));
    expect(run.checks).toHaveLength(7);
    expect(run.checks.reduce((sum, check) => sum + check.fails, 0)).toBe(1);
    expect(run.checks[0]).toEqual({ name: "GetListing status is 200", group: null, passes: 228, fails: 0 });
    expect(run.aggregate.latency.percentiles["99"]).toBeUndefined();
    expect(run.thresholds).toEqual([]);
    expect(run.endpoints).toEqual([]);
    expect(run.notes.join(" ")).toMatch(/no per-endpoint submetrics/);
    expect(run.notes.join(" ")).toMatch(/no threshold results/);
  });

  it.each(FILES)("keeps the execution mode as load config, the measured length only as the duration (%s)", (file) => {
    const run = parseK6NewSummary(readFixtureJson(file));
    // config.duration is the measured 12.45 s of a 12 s script: a load setting would differ every run.
    expect(run.environment.config).toEqual({ vus: 10, vus_max: 10, execution: "local" });
    expect(run.environment.config.duration).toBeUndefined();
    expect(run.notes.join(" ")).toMatch(/Scenarios and executors appear only inside the script text/);
  });

  it("keeps iterations as the only run metrics: the automatic expected_response sub-metric and built-in timings are dropped", () => {
    const run = parseK6NewSummary(readFixtureJson(FILES[0]!));
    expect(Object.keys(run.metrics)).toEqual(["iterations", "iterations_per_second"]);
    expect(run.metrics.iterations).toEqual({ value: 228, unit: "iterations", better: "higher" });
    expect(run.metrics.iterations_per_second?.value).toBeCloseTo(228 / 12.447958265, 9);
  });

  it("maps groups, sub-metrics and custom metrics as the other k6 summaries do (variant built here)", () => {
    const metrics = [
      { name: "http_req_duration", type: "trend", contains: "time", values: { avg: 9, med: 8, p95: 20 } },
      { name: "http_req_duration{name:Pay}", type: "trend", contains: "time", values: { avg: 12, med: 11, p90: 18, p95: 21 } },
      { name: "http_req_duration{group:::checkout}", type: "trend", contains: "time", values: { avg: 14, med: 13, p95: 25 } },
      { name: "order_flow", type: "trend", contains: "time", values: { avg: 300, med: 280, p95: 420 } },
      { name: "orders_placed", type: "counter", contains: "default", values: { count: 50 } },
      { name: "paid_ok", type: "rate", contains: "default", values: { matches: 45, rate: 0.9, total: 50 } },
    ];
    const document = readFixtureJson(FILES[0]!) as { results: { metrics: unknown[] } };
    document.results.metrics = metrics;
    const run = parseK6NewSummary(document);
    expect(run.endpoints.map((e) => e.name)).toEqual(["Pay"]);
    expect(run.endpoints[0]?.latency.percentiles).toEqual({ "50": 11, "90": 18, "95": 21 });
    expect(run.metrics).toEqual({
      "http_req_duration{group:::checkout} avg": { value: 14, unit: "ms", better: "lower" },
      "http_req_duration{group:::checkout} p(95)": { value: 25, unit: "ms", better: "lower" },
      "order_flow avg": { value: 300, unit: "ms", better: "lower" },
      "order_flow p(95)": { value: 420, unit: "ms", better: "lower" },
      orders_placed: { value: 50, unit: null, better: null },
      "orders_placed rate": { value: 50 / 12.447958265, unit: "/s", better: null },
      paid_ok: { value: 0.9, unit: "ratio", better: null },
    });
    // The same metrics written by handleSummary map to the same run metrics.
    const handle = parseK6HandleSummary({
      root_group: { name: "", path: "" },
      metrics: Object.fromEntries(
        metrics.map(({ name, type, contains, values }) => [
          name,
          { type, contains, values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k.replace(/^p(\d+)$/, "p($1)"), v])) },
        ]),
      ),
    });
    // (handleSummary's counters carry their own rate; this one was written without, so it has none.)
    const { "orders_placed rate": _computedRate, ...sameMetrics } = run.metrics;
    expect(handle.metrics).toEqual(sameMetrics);
  });

  it("gives the same run from both files", () => {
    expect(parseK6NewSummary(readFixtureJson(FILES[1]!))).toEqual(parseK6NewSummary(readFixtureJson(FILES[0]!)));
  });

  it("names the path at fault in a broken one", () => {
    const document = readFixtureJson(FILES[0]!) as { results: { metrics: { values: unknown }[] } };
    document.results.metrics[2]!.values = { avg: "fast" };
    const error = errorOf(() => parseK6NewSummary(document));
    expect(error.details[0]?.path).toBe("results.metrics[2].values.avg");
  });
});
