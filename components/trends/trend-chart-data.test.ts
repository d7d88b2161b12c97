import { describe, expect, it } from "vitest";
import type { TrendValues } from "@/server/domain/series/trend-series";
import {
  ERROR_RATE_CHART_LINE,
  throughputChartLine,
  describeShownRuns,
  errorRateTickDigits,
  formatCustomMetricValue,
  latencyChartLines,
  linesToDraw,
  metricChartLine,
  singleRunValues,
  toChartMarkers,
} from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";

type Marker = EndpointTrendsData["markers"][number];

describe("linesToDraw", () => {
  it("draws the lines asked for that have data, in the order asked", () => {
    expect(linesToDraw(["p50", "p99", "max"], ["p50", "p95", "p99"])).toEqual(["p50", "p99"]);
  });

  it("falls back to the default lines that have data, else to the first available", () => {
    expect(linesToDraw(["max"], ["p50", "p95", "mean"])).toEqual(["p50", "p95"]);
    expect(linesToDraw(["p50"], ["mean", "max"])).toEqual(["mean"]);
    expect(linesToDraw(["p50"], [])).toEqual([]);
  });
});

describe("chart lines", () => {
  it("gives each latency line its registry field and name, its colour, and milliseconds", () => {
    const [p95, mean] = latencyChartLines(["p95", "mean"]);
    expect(p95).toMatchObject({ dataKey: "p95Ms", name: "p95", color: "var(--chart-3)" });
    expect(p95?.dashed).toBeUndefined();
    expect(mean).toMatchObject({ dataKey: "meanMs", name: "mean", color: "var(--text-muted)", dashed: true });
    expect(p95?.format(12.345)).toBe("12.3 ms");
    expect(p95?.format(null)).toBe("—");
  });

  it("draws throughput in req/s (a benchmark's in ops/s) and the error rate as a percentage", () => {
    expect(throughputChartLine("endpoint")).toMatchObject({
      dataKey: "throughput",
      name: "throughput",
      color: "var(--chart-2)",
    });
    expect(throughputChartLine("endpoint").format(2.871)).toBe("2.87 req/s");
    expect(throughputChartLine("benchmark")).toMatchObject({ dataKey: "throughput", name: "ops/s" });
    expect(throughputChartLine("benchmark").format(210_000)).toBe("210,000 ops/s");
    expect(ERROR_RATE_CHART_LINE).toMatchObject({ dataKey: "errorRate", name: "error rate", color: "var(--bad)" });
    expect(ERROR_RATE_CHART_LINE.format(0.0123)).toBe("1.23%");
  });

  it("draws a custom metric in the unit its runs report", () => {
    const cpu = metricChartLine({ key: "cpu", unit: "%", better: "lower" });
    expect(cpu).toMatchObject({ dataKey: "value", name: "cpu", color: "var(--chart-1)" });
    expect(cpu.format(12.7)).toBe("12.7%");
    expect(metricChartLine({ key: "messages", unit: "msg/s", better: "higher" }).format(1200)).toBe("1,200 msg/s");
    expect(formatCustomMetricValue({ key: "memory", unit: "MB", better: "lower" }, 101)).toBe("101 MB");
    expect(formatCustomMetricValue({ key: "queue", unit: null, better: "lower" }, null)).toBe("—");
  });
});

describe("errorRateTickDigits", () => {
  it("picks one precision for the axis from its top, at least 1%", () => {
    expect(errorRateTickDigits([])).toBe(2);
    expect(errorRateTickDigits([0, null, 0.049])).toBe(2);
    expect(errorRateTickDigits([0.05, 0.2])).toBe(1);
    expect(errorRateTickDigits([0.01, 0.5])).toBe(0);
  });
});

describe("toChartMarkers", () => {
  const markers: Marker[] = [
    { runId: "a", time: 1000, order: 1, kind: "pinned", text: "baseline (nightly)" },
    { runId: "b", time: 2000, order: 2, kind: "regression", text: "p95 +76.1%" },
    { runId: "c", time: 3000, order: 3, kind: "improvement", text: "p95 −4.2%" },
    { runId: "c", time: 3000, order: 3, kind: "annotation", text: "deployed v2.3" },
  ];

  it("places markers at the x of the mode, with their kind's glyph and colour", () => {
    expect(toChartMarkers(markers, "time", [])).toEqual([
      { x: 1000, text: "📌 baseline (nightly)", color: "var(--accent)" },
      { x: 2000, text: "◆ p95 +76.1%", color: "var(--bad)" },
      { x: 3000, text: "◆ p95 −4.2%", color: "var(--good)" },
      { x: 3000, text: "✎ deployed v2.3", color: "var(--text-muted)" },
    ]);
    expect(toChartMarkers(markers, "order", []).map((marker) => marker.x)).toEqual([1, 2, 3, 3]);
  });

  it("stands where its run is drawn, when the chart moved it (rounds of one commit spread in time)", () => {
    const drawn = [{ runId: "b", x: 2600 }];
    expect(toChartMarkers(markers, "time", drawn).map((marker) => marker.x)).toEqual([1000, 2600, 3000, 3000]);
    const between: Marker = { runId: null, time: 2500, order: 3, kind: "deploy", text: "v2.4" };
    expect(toChartMarkers([between], "time", drawn).map((marker) => marker.x)).toEqual([2500]);
  });

  it("links an incident's change point to the incident's page, given the project", () => {
    const incident: Marker = { runId: "b", time: 2000, order: 2, kind: "regression", text: "Incident #3 (Open): p95 +76.1%", incidentNumber: 3 };
    expect(toChartMarkers([incident], "time", [], { slug: "listings" })).toEqual([
      { x: 2000, text: "◆ Incident #3 (Open): p95 +76.1%", color: "var(--bad)", href: "/projects/listings/incidents/3" },
    ]);
    expect(toChartMarkers([incident], "time", [])[0]).not.toHaveProperty("href");
  });

  it("keeps only the kinds asked for", () => {
    expect(toChartMarkers(markers, "order", [], { kinds: ["annotation"] })).toEqual([
      { x: 3, text: "✎ deployed v2.3", color: "var(--text-muted)" },
    ]);
  });
});

describe("describeShownRuns", () => {
  it("says how many runs are drawn, and that a long history was thinned", () => {
    expect(describeShownRuns(6, 6, false)).toBe("Showing all 6 runs");
    expect(describeShownRuns(300, 20000, true)).toBe(
      "Showing 300 of 20,000 runs (downsampled to fit the chart; the extremes of every line are kept)",
    );
  });
});

describe("singleRunValues", () => {
  it("lists every latency line, throughput and error rate, each in its unit, missing ones as a dash", () => {
    const run: TrendValues = {
      p50Ms: 0.74,
      p90Ms: null,
      p95Ms: 0.87,
      p99Ms: 1.11,
      meanMs: 0.76,
      maxMs: 2500,
      throughput: 2.87,
      errorRate: 0,
    };
    expect(singleRunValues(run)).toEqual([
      { name: "p50", value: "0.74 ms" },
      { name: "p90", value: "—" },
      { name: "p95", value: "0.87 ms" },
      { name: "p99", value: "1.11 ms" },
      { name: "mean", value: "0.76 ms" },
      { name: "max", value: "2.5 s" },
      { name: "throughput", value: "2.87 req/s" },
      { name: "error rate", value: "0.00%" },
    ]);
  });

  it("lists a benchmark's in its words: time/op in its unit, ops/s, no error rate when no sample failed", () => {
    const run: TrendValues = {
      p50Ms: 0.0047,
      p90Ms: null,
      p95Ms: null,
      p99Ms: 0.0049,
      meanMs: 0.004761,
      maxMs: 0.0000234,
      throughput: 210_000,
      errorRate: 0,
    };
    expect(singleRunValues(run, "benchmark")).toEqual([
      { name: "p50 time/op", value: "4.7 µs" },
      { name: "p90 time/op", value: "—" },
      { name: "p95 time/op", value: "—" },
      { name: "p99 time/op", value: "4.9 µs" },
      { name: "mean time/op", value: "4.76 µs" },
      { name: "max time/op", value: "23.4 ns" },
      { name: "ops/s", value: "210,000 ops/s" },
    ]);
  });
});
