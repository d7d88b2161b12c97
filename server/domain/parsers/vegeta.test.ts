import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorOf } from "./fixtures/input-error-of";
import { readFixture, readFixtureJson } from "./fixtures/read-fixture";
import type { DetectedFile } from "./uploaded-file";
import { parseVegetaHist, parseVegetaJson, parseVegetaSet, parseVegetaText } from "./vegeta";

const BASELINE = "vegeta/baseline/round1";
const JSON_FILES = [`${BASELINE}/report.json`, "vegeta/managedasync/round1/report.json"];

/** The test's own view of vegeta's JSON report (its field meanings: lib/metrics.go). */
const reportView = z.object({
  latencies: z.record(z.string(), z.number()),
  earliest: z.string(),
  duration: z.number(),
  wait: z.number(),
  requests: z.number(),
  rate: z.number(),
  throughput: z.number(),
  success: z.number(),
  status_codes: z.record(z.string(), z.number()),
  errors: z.array(z.string()),
});

function jsonFixture(path: string): { document: unknown; report: z.infer<typeof reportView> } {
  const document = readFixtureJson(path);
  return { document, report: reportView.parse(document) };
}

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

describe.each(JSON_FILES)("vegeta JSON report %s", (path) => {
  const { document, report } = jsonFixture(path);
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

describe("vegeta text report", () => {
  const text = readFixture(`${BASELINE}/report.txt`);
  const run = parseVegetaText(text, "report.txt");
  const { report } = jsonFixture(`${BASELINE}/report.json`);
  const json = parseVegetaJson(readFixtureJson(`${BASELINE}/report.json`));

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

describe("vegeta histogram report", () => {
  const text = readFixture(`${BASELINE}/report-hist.txt`);

  it("keeps the file's counts as buckets (the empty open bucket dropped)", () => {
    const run = parseVegetaHist(text, "report-hist.txt");
    const rows = [...text.matchAll(/^\[(\S+),\s+(\S+)\]\s+(\d+)/gm)].map((m) => ({ upper: m[2], count: Number(m[3]) }));
    expect(rows).toHaveLength(7);
    expect(rows[6]).toEqual({ upper: "+Inf", count: 0 });
    expect(run.format).toBe("vegeta-hist");
    expect(run.endpoints).toEqual([]);
    expect(run.aggregate.histogram).toEqual([
      { upperMs: 2, count: 24 },
      { upperMs: 5, count: 375 },
      { upperMs: 10, count: 423 },
      { upperMs: 20, count: 290 },
      { upperMs: 50, count: 88 },
      { upperMs: 100, count: 0 },
    ]);
    expect(run.aggregate.histogram?.map((b) => b.count)).toEqual(rows.slice(0, 6).map((r) => r.count));
    expect(run.aggregate.requests).toBe(rows.reduce((sum, r) => sum + r.count, 0));
    expect(run.aggregate.requests).toBe(jsonFixture(`${BASELINE}/report.json`).report.requests);
    expect(run.aggregate.latency.percentiles).toEqual({});
    expect(run.notes).toEqual([]);
  });

  it("reads other edges the same way: a first edge above 0 and a filled open bucket", () => {
    const other = [
      "Bucket           #    %       Histogram",
      "[500µs,  1ms]    10   10.00%  #######",
      "[1ms,    1m30s]  60   60.00%  #############################################",
      "[1m30s,  +Inf]   30   30.00%  ######################",
    ].join("\n");
    const run = parseVegetaHist(other, "hist.txt");
    expect(run.aggregate.histogram).toEqual([
      { upperMs: 0.5, count: 0 },
      { upperMs: 1, count: 10 },
      { upperMs: 90000, count: 60 },
    ]);
    expect(run.aggregate.requests).toBe(100);
    expect(run.notes).toHaveLength(1);
    expect(run.notes[0]).toContain("30 of 100 requests are not in the histogram");
    expect(run.notes[0]).toContain("faster than the first edge 500µs");
  });

  it("refuses a garbled row, a miscount and a truncated table, naming the line", () => {
    const garbled = text.replace("[5ms,    10ms]", "[5ms,    10xs]");
    expect(errorOf(() => parseVegetaHist(garbled, "h.txt")).details[0]?.path).toBe("h.txt: line 4");
    const miscount = text.replace("375  31.25%", "395  31.25%");
    const error = errorOf(() => parseVegetaHist(miscount, "h.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("h.txt: line 2"); // 24 of 1220 is no longer 2.00%
    const truncated = text.split("\n").slice(0, 5).join("\n");
    expect(errorOf(() => parseVegetaHist(truncated, "h.txt")).message).toContain("truncated");
    expect(errorOf(() => parseVegetaHist("Bucket # %\n", "h.txt")).details[0]?.path).toBe("h.txt: line 1");
  });
});

describe("one vegeta attack's reports sent together", () => {
  const jsonText = readFixture(`${BASELINE}/report.json`);
  const reportFile: DetectedFile = {
    name: "report.json",
    text: jsonText,
    format: "vegeta-json",
    document: JSON.parse(jsonText),
  };
  const textFile: DetectedFile = {
    name: "report.txt",
    text: readFixture(`${BASELINE}/report.txt`),
    format: "vegeta-text",
  };
  const histFile: DetectedFile = {
    name: "report-hist.txt",
    text: readFixture(`${BASELINE}/report-hist.txt`),
    format: "vegeta-hist",
  };

  it("puts the histogram on the JSON or text report's aggregate", () => {
    const run = parseVegetaSet([histFile, reportFile]);
    const json = parseVegetaJson(reportFile.document);
    const hist = parseVegetaHist(histFile.text, "report-hist.txt");
    expect(run.format).toBe("vegeta-json");
    expect(run.aggregate.histogram).toEqual(hist.aggregate.histogram);
    expect({ ...run, aggregate: { ...run.aggregate, histogram: null } }).toEqual(json);
    expect(parseVegetaSet([textFile, histFile]).format).toBe("vegeta-text");
    expect(parseVegetaSet([histFile])).toEqual(hist);
    expect(parseVegetaSet([reportFile])).toEqual(json);
  });

  it("refuses two reports, two histograms, or a histogram of another attack", () => {
    const two = errorOf(() => parseVegetaSet([reportFile, textFile]));
    expect(two.code).toBe("malformed");
    expect(two.details.map((d) => d.path)).toEqual(["report.json", "report.txt"]);
    expect(
      errorOf(() => parseVegetaSet([histFile, { ...histFile, name: "b.txt" }])).details.map((d) => d.path),
    ).toEqual(["report-hist.txt", "b.txt"]);
    const otherAttack = {
      ...histFile,
      text: [
        "Bucket  #  %  Histogram",
        "[0s, 2ms]  24  2.00%",
        "[2ms, 5ms]  375  31.22%",
        "[5ms, 10ms]  423  35.22%",
        "[10ms, 20ms]  291  24.23%",
        "[20ms, 50ms]  88  7.33%",
        "[50ms, +Inf]  0  0.00%",
      ].join("\n"),
    };
    const mismatch = errorOf(() => parseVegetaSet([reportFile, otherAttack]));
    expect(mismatch.message).toContain("1201");
    expect(mismatch.details.map((d) => d.path)).toEqual(["report-hist.txt", "report.json"]);
  });

  it("names the file and JSON path of a wrong type", () => {
    const document = { ...(reportFile.document as Record<string, unknown>), requests: "1200" };
    const error = errorOf(() => parseVegetaSet([{ ...reportFile, document }]));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("report.json: requests");
    expect(errorOf(() => parseVegetaJson(document)).details[0]?.path).toBe("requests");
  });
});

describe("vegeta JSON variants", () => {
  const { document } = jsonFixture(`${BASELINE}/report.json`);
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
