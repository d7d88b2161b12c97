import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { CustomMetric, ParsedRun } from "../../run";
import { errorOf } from "../fixtures/input-error-of";
import { readFixtureJson } from "../fixtures/read-fixture";
import { parseK6HandleSummary } from "./k6-handle-summary";
import { parseK6SummaryExport } from "./k6-summary";

// k6 groups, two scenarios, custom metrics and sub-metric thresholds (fixtures README, "k6: groups…"):
// the same run as --summary-export (summary.json) and handleSummary (handle-summary.json).
const FOLDER = "k6/baseline/groups-submetrics";
const legacyFile = readFixtureJson(`${FOLDER}/summary.json`);
const handleFile = readFixtureJson(`${FOLDER}/handle-summary.json`);
const legacy = parseK6SummaryExport(legacyFile);
const handle = parseK6HandleSummary(handleFile);

// The test's own reading of the files: every metric's numbers and threshold results, whatever the shape.
const legacyView = z.object({
  metrics: z.record(z.string(), z.record(z.string(), z.union([z.number(), z.record(z.string(), z.boolean())]))),
});
const handleView = z.object({
  metrics: z.record(
    z.string(),
    z.object({
      values: z.record(z.string(), z.number()),
      thresholds: z.record(z.string(), z.object({ ok: z.boolean() })).optional(),
    }),
  ),
});

interface FileMetric {
  values: Record<string, number>;
  /** expression → passed */
  thresholds: Record<string, boolean>;
}

function metricsOf(file: "legacy" | "handle"): Map<string, FileMetric> {
  const metrics = new Map<string, FileMetric>();
  if (file === "handle") {
    for (const [key, metric] of Object.entries(handleView.parse(handleFile).metrics)) {
      const thresholds = Object.fromEntries(
        Object.entries(metric.thresholds ?? {}).map(([expression, { ok }]) => [expression, ok]),
      );
      metrics.set(key, { values: metric.values, thresholds });
    }
    return metrics;
  }
  for (const [key, metric] of Object.entries(legacyView.parse(legacyFile).metrics)) {
    const values: Record<string, number> = {};
    let thresholds: Record<string, boolean> = {};
    for (const [stat, value] of Object.entries(metric)) {
      // Legacy: `true` means the threshold FAILED.
      if (typeof value === "number") values[stat] = value;
      else thresholds = Object.fromEntries(Object.entries(value).map(([expression, failed]) => [expression, !failed]));
    }
    metrics.set(key, { values, thresholds });
  }
  return metrics;
}

const REQUEST_NAMES = ["CheckStockAvailability", "GetAllCategories", "GetListing", "ListListings", "SearchListings"];
// Every threshold of the script, as the fixtures README lists them (the object form included).
const SCRIPT_THRESHOLDS = [
  "browse_flow_duration p(90)<120",
  "checks{check:SearchListings status is 200} rate>0.98",
  "http_req_duration{group:::browse::listing detail} avg<15",
  "http_req_duration{group:::browse} p(95)<40",
  ...REQUEST_NAMES.map((name) => `http_req_duration{name:${name}} p(95)<50`),
  "http_req_duration{name:SearchListings} p(99)<80",
  "http_req_failed rate<0.01",
  "http_req_failed{scenario:checkout} rate<0.02",
  "iteration_duration{scenario:browse} p(95)<1500",
  "stock_all_available rate>0.1",
];

const cases: ["legacy" | "handle", ParsedRun][] = [
  ["legacy", legacy],
  ["handle", handle],
];

describe.each(cases)("k6 groups fixture, %s file", (file, run) => {
  const metrics = metricsOf(file);
  const values = (key: string): Record<string, number> => metrics.get(key)?.values ?? {};

  it("has the five request names as endpoints, with their sub-metric numbers, and no group endpoint", () => {
    expect(run.endpoints.map((e) => e.name)).toEqual(REQUEST_NAMES);
    for (const endpoint of run.endpoints) {
      const trend = values(`http_req_duration{name:${endpoint.name}}`);
      expect(endpoint.protocol).toBe("http");
      expect(endpoint.fullName).toBeNull();
      expect(endpoint.latency).toEqual({
        minMs: trend.min,
        meanMs: trend.avg,
        maxMs: trend.max,
        stdDevMs: null,
        percentiles: { "50": trend.med, "90": trend["p(90)"], "95": trend["p(95)"] },
      });
      // Default summaryTrendStats have no count and the script names no http_reqs{name:…}: unknown, not 0.
      expect(endpoint.requests).toBeNull();
      expect(endpoint.failures).toBeNull();
      expect(endpoint.throughput).toBeNull();
    }
    expect(run.aggregate.latency.percentiles["95"]).toBe(values("http_req_duration")["p(95)"]);
    expect(run.aggregate.requests).toBe(values("http_reqs").count);
    expect(run.aggregate.failures).toBe(values("http_req_failed").passes);
  });

  it("keeps the group breakdown as run metrics in ms, lower is better, with the stat each threshold names", () => {
    const groupKeys = [...metrics.keys()].filter((key) => key.includes("{group:"));
    expect(groupKeys.sort()).toEqual([
      "http_req_duration{group:::browse::listing detail}",
      "http_req_duration{group:::browse}",
    ]);
    for (const key of groupKeys) {
      for (const stat of ["avg", "p(95)"]) {
        expect(run.metrics[`${key} ${stat}`]).toEqual({ value: values(key)[stat], unit: "ms", better: "lower" });
      }
    }
    expect(run.notes.join(" ")).toMatch(/group sub-metrics are kept as run metrics, not endpoints/);
  });

  it("keeps custom metrics with their units and direction", () => {
    const timeUnit = file === "handle" ? "ms" : null; // the legacy export does not say a custom trend is time
    const flow = values("browse_flow_duration");
    const expected: Record<string, CustomMetric> = {
      "browse_flow_duration avg": { value: flow.avg ?? Number.NaN, unit: timeUnit, better: "lower" },
      "browse_flow_duration p(95)": { value: flow["p(95)"] ?? Number.NaN, unit: timeUnit, better: "lower" },
      "browse_flow_duration p(90)": { value: flow["p(90)"] ?? Number.NaN, unit: timeUnit, better: "lower" },
      search_results_returned: {
        value: values("search_results_returned").count ?? Number.NaN,
        unit: null,
        better: null,
      },
      "search_results_returned rate": {
        value: values("search_results_returned").rate ?? Number.NaN,
        unit: "/s",
        better: null,
      },
      stock_all_available: {
        value: values("stock_all_available")[file === "handle" ? "rate" : "value"] ?? Number.NaN,
        unit: "ratio",
        better: "higher",
      },
      listings_last_page_size: {
        value: values("listings_last_page_size").value ?? Number.NaN,
        unit: null,
        better: null,
      },
      "http_req_failed{scenario:checkout}": {
        value: values("http_req_failed{scenario:checkout}")[file === "handle" ? "rate" : "value"] ?? Number.NaN,
        unit: "ratio",
        better: "lower",
      },
      "checks{check:SearchListings status is 200}": {
        value: values("checks{check:SearchListings status is 200}")[file === "handle" ? "rate" : "value"] ?? Number.NaN,
        unit: "ratio",
        better: "higher",
      },
      "iteration_duration{scenario:browse} avg": {
        value: values("iteration_duration{scenario:browse}").avg ?? Number.NaN,
        unit: "ms",
        better: "lower",
      },
      "iteration_duration{scenario:browse} p(95)": {
        value: values("iteration_duration{scenario:browse}")["p(95)"] ?? Number.NaN,
        unit: "ms",
        better: "lower",
      },
    };
    for (const [name, metric] of Object.entries(expected)) expect(run.metrics[name], name).toEqual(metric);
    expect(run.metrics.iterations?.value).toBe(values("iterations").count);
    // Group (4) + custom and threshold-named (11) + iterations (2); nothing else.
    expect(Object.keys(run.metrics)).toHaveLength(4 + 11 + 2);
    for (const dropped of [
      "http_req_blocked",
      "http_req_waiting",
      "group_duration",
      "iteration_duration ",
      "data_sent",
      "expected_response",
      "vus",
    ]) {
      expect(Object.keys(run.metrics).filter((key) => key.startsWith(dropped) || key.includes(dropped))).toEqual([]);
    }
  });

  it("keeps every threshold with its result, the object form included, and loses none", () => {
    const fromFile = [...metrics.entries()].flatMap(([key, metric]) =>
      Object.entries(metric.thresholds).map(([expression, passed]) => ({ metric: key, expression, passed })),
    );
    const byText = (list: { metric: string; expression: string; passed: boolean }[]) =>
      Object.fromEntries(list.map((t) => [`${t.metric} ${t.expression}`, t.passed]));
    expect(byText(run.thresholds)).toEqual(byText(fromFile));
    expect(run.thresholds).toHaveLength(fromFile.length);
    expect(Object.keys(byText(run.thresholds)).sort()).toEqual([...SCRIPT_THRESHOLDS].sort());
    expect(run.thresholds.every((t) => t.passed)).toBe(true); // every threshold passes in baseline
  });

  it("keeps the checks with their group path", () => {
    expect(run.checks).toEqual([
      { name: "GetAllCategories status is 200", group: "::browse", passes: 154, fails: 0 },
      { name: "ListListings status is 200", group: "::browse", passes: 153, fails: 1 },
      { name: "GetListing status is 200", group: "::browse::listing detail", passes: 154, fails: 0 },
      { name: "CheckStockAvailability status is 200", group: "::checkout", passes: 180, fails: 1 },
      { name: "SearchListings status is 200", group: "::search", passes: 153, fails: 1 },
    ]);
  });

  it("says a threshold tested a stat the summary does not hold (p(99) without summaryTrendStats)", () => {
    expect(run.notes.join(" ")).toMatch(/http_req_duration\{name:SearchListings\} p\(99\)/);
    expect(run.environment.config).toEqual({ vus: values("vus").max, vus_max: values("vus_max").max });
  });
});

describe("k6 groups fixture, both files", () => {
  it("give the same run apart from what only one of them says", () => {
    // Only handleSummary says browse_flow_duration is a time trend and how long the test ran.
    const comparable = (run: ParsedRun) => ({
      ...run,
      format: null,
      durationSeconds: null,
      metrics: Object.fromEntries(
        Object.entries(run.metrics).map(([key, m]) => [
          key,
          key.startsWith("browse_flow_duration") ? { ...m, unit: null } : m,
        ]),
      ),
      notes: run.notes.filter((note) => !/does not say which custom trends hold times/.test(note)),
    });
    expect(comparable(legacy)).toEqual(comparable(handle));
    expect(legacy.notes.join(" ")).toMatch(/does not say which custom trends hold times.*browse_flow_duration/);
    expect(handle.durationSeconds).toBe(12.302908737);
    expect(legacy.durationSeconds).toBeCloseTo(12.302908737, 6); // http_reqs count / rate
  });
});

describe("k6 groups, sub-metrics and custom metrics on a variant built here", () => {
  // Names, numbers, a group, a scenario, a status code and custom metrics unlike the fixture's.
  const trend = (avg: number, extra: Record<string, number> = {}) => ({
    type: "trend",
    contains: "time",
    values: { avg, min: 1, med: avg, max: 99, "p(95)": avg * 2, ...extra },
  });
  const variant = {
    root_group: {
      name: "",
      path: "",
      groups: [{ name: "admin", path: "::admin", groups: [], checks: [{ name: "ok", passes: 2, fails: 0 }] }],
      checks: [],
    },
    metrics: {
      http_req_duration: trend(10),
      http_reqs: { type: "counter", contains: "default", values: { count: 40, rate: 4 } },
      "http_req_duration{name:FetchItem}": {
        ...trend(7, { "p(99.9)": 50 }),
        thresholds: { "p(99.9)<60": { ok: false } },
      },
      "http_req_duration{group:::admin}": { ...trend(20), thresholds: { "med<30": { ok: true } } },
      "http_req_duration{status:503}": { ...trend(30), thresholds: { "max<100": { ok: true } } },
      "http_reqs{scenario:spike}": {
        type: "counter",
        contains: "default",
        values: { count: 12, rate: 1.2 },
        thresholds: { "count>10": { ok: true } },
      },
      queue_depth: { type: "gauge", contains: "default", values: { value: 3, min: 0, max: 9 } },
      cart_size: { type: "trend", contains: "default", values: { avg: 2.5, min: 1, med: 2, max: 6, "p(95)": 5 } },
      score: {
        type: "trend",
        contains: "default",
        values: { avg: 70, "p(95)": 90, "p(5)": 40 },
        thresholds: { "p(5)>=30": { ok: true } },
      },
      bytes_cached: { type: "counter", contains: "data", values: { count: 2048, rate: 204.8 } },
    },
    state: { testRunDurationMs: 10_000 },
  };
  const run = parseK6HandleSummary(variant);

  it("maps them by the same rules, whatever their names and numbers", () => {
    expect(run.endpoints.map((e) => e.name)).toEqual(["FetchItem"]);
    expect(run.endpoints[0]?.latency.percentiles["99.9"]).toBe(50);
    expect(run.metrics).toMatchObject({
      "http_req_duration{group:::admin} avg": { value: 20, unit: "ms", better: "lower" },
      "http_req_duration{group:::admin} p(95)": { value: 40, unit: "ms", better: "lower" },
      "http_req_duration{group:::admin} med": { value: 20, unit: "ms", better: "lower" },
      "http_req_duration{status:503} max": { value: 99, unit: "ms", better: "lower" },
      "http_reqs{scenario:spike}": { value: 12, unit: null, better: "higher" },
      "http_reqs{scenario:spike} rate": { value: 1.2, unit: "/s", better: "higher" },
      queue_depth: { value: 3, unit: null, better: null },
      "cart_size avg": { value: 2.5, unit: null, better: null }, // not time, no threshold: direction unknown
      "score p(5)": { value: 40, unit: null, better: "higher" },
      bytes_cached: { value: 2048, unit: "B", better: null },
      "bytes_cached rate": { value: 204.8, unit: "B/s", better: null },
    });
    expect(run.thresholds).toContainEqual({
      metric: "http_req_duration{name:FetchItem}",
      expression: "p(99.9)<60",
      passed: false,
    });
    expect(run.thresholds).toHaveLength(5);
    expect(run.checks).toEqual([{ name: "ok", group: "::admin", passes: 2, fails: 0 }]);
  });

  it("reads the legacy export of the same metrics the same way, its custom trend units aside", () => {
    const legacyVariant = {
      root_group: { name: "", path: "", groups: {}, checks: {} },
      metrics: Object.fromEntries(
        Object.entries(variant.metrics).map(([key, metric]) => {
          const thresholds =
            "thresholds" in metric
              ? Object.fromEntries(Object.entries(metric.thresholds).map(([e, { ok }]) => [e, !ok]))
              : undefined;
          return [key, { ...metric.values, ...(thresholds ? { thresholds } : {}) }];
        }),
      ),
    };
    const fromLegacy = parseK6SummaryExport(legacyVariant);
    expect(fromLegacy.endpoints).toEqual(run.endpoints);
    expect(fromLegacy.thresholds).toEqual(run.thresholds);
    const unitless = (metrics: Record<string, CustomMetric>, prefixes: string[]) =>
      Object.fromEntries(
        Object.entries(metrics).map(([k, m]) => [k, prefixes.some((p) => k.startsWith(p)) ? { ...m, unit: null } : m]),
      );
    expect(unitless(fromLegacy.metrics, ["bytes_cached"])).toEqual(unitless(run.metrics, ["bytes_cached"]));
  });

  it("keeps at most 100 metrics, threshold-named ones first, and says what it left out", () => {
    const many = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `gauge_${String(i).padStart(3, "0")}`,
        { type: "gauge", contains: "default", values: { value: i } },
      ]),
    );
    const crowded = parseK6HandleSummary({ ...variant, metrics: { ...variant.metrics, ...many } });
    expect(Object.keys(crowded.metrics)).toHaveLength(100);
    expect(crowded.metrics["http_reqs{scenario:spike}"]?.value).toBe(12);
    expect(crowded.notes.join(" ")).toMatch(/k6 metric value\(s\) left out \(at most 100 per run\)/);
  });
});

describe("k6 groups fixture, malformed", () => {
  it("names the JSON path of a threshold result of the wrong type (handleSummary)", () => {
    const document = structuredClone(handleFile) as {
      metrics: Record<string, { thresholds?: Record<string, unknown> }>;
    };
    document.metrics["iteration_duration{scenario:browse}"] = {
      ...document.metrics["iteration_duration{scenario:browse}"],
      thresholds: { "p(95)<1500": { ok: "yes" } },
    };
    const error = errorOf(() => parseK6HandleSummary(document));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain(
      "metrics.iteration_duration{scenario:browse}.thresholds.p(95)<1500.ok",
    );
  });

  it("names the JSON path of a garbled group (legacy)", () => {
    const document = structuredClone(legacyFile) as { root_group: { groups: Record<string, unknown> } };
    document.root_group.groups.browse = { name: "browse", path: 7 };
    const error = errorOf(() => parseK6SummaryExport(document));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain("root_group.groups.browse.path");
  });
});
