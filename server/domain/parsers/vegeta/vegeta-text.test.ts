import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { VEGETA_BASELINE, vegetaJsonFixture } from "../fixtures/vegeta-report-view";
import { parseVegetaJson } from "./vegeta-json";
import { parseVegetaText } from "./vegeta-text";

/** vegeta's text report rounds a duration to the unit below its own (lib/reporters.go `round`). */
function roundingUnitNs(ns: number): number {
  const units = [3600e9, 60e9, 1e9, 1e6, 1e3, 1];
  const index = units.findIndex((unit) => ns >= unit);
  return index < 0 || index === units.length - 1 ? 1 : (units[index + 1] ?? 1);
}

/** A few Go durations read independently of the parser (only the units the fixture uses). */
function nsOf(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|µs)$/.exec(text);
  if (!match) throw new Error(`unexpected duration ${text}`);
  return Number(match[1]) * { ms: 1e6, s: 1e9, µs: 1e3 }[match[2] as "ms" | "s" | "µs"];
}

describe("vegeta text report", () => {
  const text = readFixture(`${VEGETA_BASELINE}/report.txt`);
  const run = parseVegetaText(text, "report.txt");
  const { report } = vegetaJsonFixture(`${VEGETA_BASELINE}/report.json`);
  const json = parseVegetaJson(readFixtureJson(`${VEGETA_BASELINE}/report.json`));

  it("reads the file's own figures", () => {
    expect(run.format).toBe("vegeta-text");
    expect(run.endpoints).toEqual([]);
    expect(run.aggregate.requests).toBe(1200);
    expect(run.aggregate.throughput).toBe(100.08);
    expect(run.aggregate.statusCodes).toEqual({ "200": 1197, "500": 3 });
    expect(run.aggregate.failures).toBe(3);
    expect(run.metrics.success_throughput?.value).toBe(99.78);
    expect(run.startedAt).toBeNull();
    const latencies = /Latencies\s+\[min, mean, 50, 90, 95, 99, max\]\s+(.*)/.exec(text)?.[1]?.split(", ") ?? [];
    const [min, mean, p50, p90, p95, p99, max] = latencies.map((cell) => nsOf(cell) / 1e6);
    expect(run.aggregate.latency).toEqual({
      minMs: min,
      meanMs: mean,
      maxMs: max,
      stdDevMs: null,
      percentiles: { "50": p50, "90": p90, "95": p95, "99": p99 },
    });
    expect(run.notes).toEqual(['vegeta listed 1 distinct error without counting them: "500 Internal Server Error".']);
  });

  it("equals the JSON report of the same attack within the text's rounding", () => {
    const near = (textMs: number | null | undefined, jsonNs: number): void => {
      expect(Math.abs((textMs ?? Number.NaN) * 1e6 - jsonNs)).toBeLessThanOrEqual(roundingUnitNs(jsonNs) / 2 + 1e-3);
    };
    near(run.aggregate.latency.minMs, report.latencies.min ?? 0);
    near(run.aggregate.latency.meanMs, report.latencies.mean ?? 0);
    near(run.aggregate.latency.maxMs, report.latencies.max ?? 0);
    for (const p of ["50", "90", "95", "99"])
      near(run.aggregate.latency.percentiles[p], report.latencies[`${p}th`] ?? 0);
    near((run.durationSeconds ?? 0) * 1e3, report.duration + report.wait);
    expect(Math.abs((run.aggregate.throughput ?? 0) - report.rate)).toBeLessThanOrEqual(0.005);
    expect(Math.abs((run.metrics.success_throughput?.value ?? 0) - report.throughput)).toBeLessThanOrEqual(0.005);
    expect(run.aggregate.requests).toBe(json.aggregate.requests);
    expect(run.aggregate.failures).toBe(json.aggregate.failures);
    expect(run.aggregate.statusCodes).toEqual(json.aggregate.statusCodes);
    expect(run.notes).toEqual(json.notes);
  });

  it("reads another attack's report the same way (other numbers, codes, durations and columns)", () => {
    const other = [
      "Requests      [total, rate, throughput]         6000, 100.01, 99.71",
      "Duration      [total, attack, wait]             1m2.5s, 59.991s, 850us",
      "Latencies     [min, mean, 50, 75, 99.9, max, stddev]  609.326µs, 66.243ms, 1.154ms, 1.566ms, 2.178s, 1h2m3.5s, 3ms",
      "Bytes In      [total, mean]                     929228, 154.87",
      "Success       [ratio]                           99.40%",
      "Status Codes  [code:count]                      0:18  200:5964  302:18  404:0  ",
      "Error Set:",
      'Get "https://cafe.example.com/tea": read: connection reset by peer',
      'Get "https://cafe.example.com/tea": connect: connection refused',
    ].join("\r\n");
    const parsed = parseVegetaText(other, "other.txt");
    expect(parsed.aggregate.requests).toBe(6000);
    expect(parsed.aggregate.failures).toBe(18); // 302 succeeds, 0 (no response) fails
    expect(parsed.aggregate.statusCodes).toEqual({ "0": 18, "200": 5964, "302": 18, "404": 0 });
    expect(parsed.durationSeconds).toBeCloseTo(62.5, 9);
    expect(parsed.aggregate.latency.minMs).toBeCloseTo(0.609326, 9);
    expect(parsed.aggregate.latency.maxMs).toBeCloseTo(3723500, 6);
    expect(parsed.aggregate.latency.percentiles).toEqual({ "50": 1.154, "75": 1.566, "99.9": 2178 });
    expect(parsed.notes).toContain('vegeta text report: the "stddev" latency was not read.');
    expect(parsed.notes.join(" ")).toContain("2 distinct errors");
    expect(parsed.notes.join(" ")).toContain("connection refused");
    expect(parsed.notes.join(" ")).toContain("disagrees"); // 99.40% printed, 99.70% from the codes
  });

  it("reads an older vegeta's column lists by their names", () => {
    const older = [
      "Requests\t[total, rate]\t150, 5.03",
      "Duration\t[total, attack, wait]\t30.54s, 29.8s, 739.843ms",
      "Latencies\t[mean, 50, 95, 99, max]\t660.859ms, 736.335ms, 743.434ms, 829.418ms, 879.144ms",
      "Success\t[ratio]\t55.33%",
      "Status Codes\t[code:count]\t200:83  500:67  ",
      "Error Set:",
    ].join("\n");
    const run = parseVegetaText(older, "old.txt");
    expect(run.aggregate.requests).toBe(150);
    expect(run.aggregate.failures).toBe(67);
    expect(run.aggregate.throughput).toBe(5.03);
    expect(run.metrics).toEqual({});
    expect(run.aggregate.latency).toEqual({
      minMs: null,
      meanMs: 660.859,
      maxMs: 879.144,
      stdDevMs: null,
      percentiles: { "50": 736.335, "95": 743.434, "99": 829.418 },
    });
    expect(run.durationSeconds).toBeCloseTo(30.54, 9);
    expect(run.notes).toEqual([]);
  });

  it("refuses a garbled or unknown line, naming it", () => {
    const garbled = text.replace("9.041ms", "9.041 ms");
    expect(errorOf(() => parseVegetaText(garbled, "report.txt")).details[0]?.path).toBe("report.txt: line 3");
    const columns = text.replace("1200, 100.08, 99.78", "1200, 100.08");
    expect(errorOf(() => parseVegetaText(columns, "report.txt")).details[0]?.path).toBe("report.txt: line 1");
    const codes = text.replace("500:3", "500:x");
    expect(errorOf(() => parseVegetaText(codes, "report.txt")).details[0]?.path).toBe("report.txt: line 7");
    const stray = text.replace("Error Set:", "Summary: fine\nError Set:");
    const error = errorOf(() => parseVegetaText(stray, "report.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("report.txt: line 8");
    const miscounted = text.replace("200:1197", "200:1190");
    expect(errorOf(() => parseVegetaText(miscounted, "report.txt")).message).toContain("add up to 1193");
    expect(errorOf(() => parseVegetaText(text.slice(0, 20), "report.txt")).details[0]?.path).toBe("report.txt: line 1");
  });
});
