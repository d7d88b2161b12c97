import { describe, expect, it } from "vitest";
import { detectJsonFormat } from "./detect";
import { errorOf } from "./fixtures/input-error-of";
import { readFixture, readFixtureJson } from "./fixtures/read-fixture";
import { parseUpload } from "./index";
import { parseK6NewSummary } from "./k6-summary";

// k6 1.x `--new-machine-readable-summary`, both files k6 wrote for one run (indented summary.json and
// compact handle-summary.json): the numbers below are the files' own.
const FILES = ["k6/new-summary/summary.json", "k6/new-summary/handle-summary.json"];

describe("k6 new machine-readable summary", () => {
  it.each(FILES)("is detected by its shape, and ?format=k6 accepts it (%s)", (file) => {
    expect(detectJsonFormat(readFixtureJson(file))).toBe("k6-new-summary");
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
