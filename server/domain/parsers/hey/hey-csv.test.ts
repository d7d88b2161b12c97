import { describe, expect, it } from "vitest";
import { expectedPercentile } from "../fixtures/expected-stats";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseHeyCsv } from "./hey-csv";

const CSV_FIXTURE = "hey/baseline/csv/hey.csv";

const isFailedStatus = (code: string): boolean => !/^[23]\d\d$/.test(code);


describe("hey CSV (-o csv)", () => {
  const text = readFixture(CSV_FIXTURE);
  const rows = text
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(","))
    .map((cells) => ({ seconds: Number(cells[0]), status: cells[6] ?? "", offset: Number(cells[7]) }));
  const run = parseHeyCsv(text, "hey.csv");
  const { aggregate } = run;

  it("counts every row as a request with its status", () => {
    expect(rows).toHaveLength(500);
    expect(run.format).toBe("hey-csv");
    expect(run.tool).toBe("hey");
    expect(run.endpoints).toEqual([]);
    expect(run.startedAt).toBeNull();
    expect(run.environment.config).toEqual({ protocol: "http" });
    expect(aggregate.protocol).toBe("http");
    expect(aggregate.requests).toBe(rows.length);
    const statuses: Record<string, number> = {};
    for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
    expect(aggregate.statusCodes).toEqual(statuses);
    expect(aggregate.failures).toBe(rows.filter((row) => isFailedStatus(row.status)).length);
    expect(aggregate.errors).toBeNull(); // hey leaves errored requests out of its CSV
  });

  it("computes exact latency statistics from the rows", () => {
    const sorted = rows.map((row) => row.seconds * 1000).sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    const stdDev = Math.sqrt(sorted.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (sorted.length - 1));
    expect(aggregate.latency.minMs).toBeCloseTo(sorted[0] ?? Number.NaN, 9);
    expect(aggregate.latency.maxMs).toBeCloseTo(sorted[sorted.length - 1] ?? Number.NaN, 9);
    expect(aggregate.latency.meanMs).toBeCloseTo(mean, 9);
    expect(aggregate.latency.stdDevMs).toBeCloseTo(stdDev, 9);
    for (const p of [10, 25, 50, 75, 90, 95, 99, 99.9]) {
      expect(aggregate.latency.percentiles[String(p)]).toBeCloseTo(expectedPercentile(sorted, p), 9);
    }
  });

  it("builds an HDR histogram holding every row", () => {
    const microseconds = rows.map((row) => Math.round(row.seconds * 1e6));
    let cumulative = 0;
    for (const bucket of aggregate.histogram ?? []) {
      cumulative += bucket.count;
      expect(microseconds.filter((us) => us <= Math.round(bucket.upperMs * 1000)).length).toBe(cumulative);
    }
    expect(cumulative).toBe(rows.length);
  });

  it("measures the run from the first request's start to the last response's end", () => {
    const start = Math.min(...rows.map((row) => row.offset));
    const end = Math.max(...rows.map((row) => row.offset + row.seconds));
    expect(run.durationSeconds).toBeCloseTo(end - start, 9);
    expect(aggregate.throughput).toBeCloseTo(rows.length / (end - start), 6);
  });

  it("reads rows of another run the same way", () => {
    const header = text.split("\n")[0] ?? "";
    const built = [
      header,
      "0.2500,0.0010,0.0000,0.0001,0.2480,0.0009,200,1.0000",
      "0.0100,0.0000,0.0000,0.0000,0.0099,0.0001,404,1.5000",
      "0.0300,0.0000,0.0000,0.0000,0.0299,0.0001,302,2.0000",
      "0.0200,0.0000,0.0000,0.0000,0.0199,0.0001,503,3.2500",
    ].join("\n");
    const other = parseHeyCsv(`${built}\n`, "other.csv");
    expect(other.aggregate).toMatchObject({
      requests: 4,
      failures: 2,
      statusCodes: { "200": 1, "302": 1, "404": 1, "503": 1 },
    });
    expect(other.aggregate.latency).toMatchObject({ minMs: 10, maxMs: 250, meanMs: 77.5 });
    expect(other.aggregate.latency.percentiles["50"]).toBeCloseTo(25, 9);
    expect(other.durationSeconds).toBe(2.27); // 1.0000 → 3.2500 + 0.0200
    expect(other.aggregate.throughput).toBeCloseTo(4 / 2.27, 9);
  });

  it("reads a CSV with no rows as no responses", () => {
    const empty = parseHeyCsv(`${text.split("\n")[0] ?? ""}\n`, "hey.csv");
    expect(empty.aggregate).toMatchObject({ requests: 0, failures: 0, histogram: null, throughput: null });
    expect(empty.durationSeconds).toBeNull();
    expect(empty.notes).toHaveLength(1);
  });

  it("names the line and column of a bad cell, and the header of a missing column", () => {
    const lines = text.split("\n");
    lines[7] = (lines[7] ?? "").replace(/^[\d.]+,/, "0.00x6,");
    const error = errorOf(() => parseHeyCsv(lines.join("\n"), "hey.csv"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("hey.csv: line 8: response-time");
    const noStatus = text.replace(",status-code,", ",status,");
    expect(errorOf(() => parseHeyCsv(noStatus, "hey.csv")).details[0]?.path).toBe("hey.csv: line 1");
  });
});
