import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { VEGETA_BASELINE, vegetaJsonFixture } from "../fixtures/vegeta-report-view";
import { parseVegetaHist } from "./vegeta-hist";

describe("vegeta histogram report", () => {
  const text = readFixture(`${VEGETA_BASELINE}/report-hist.txt`);

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
    expect(run.aggregate.requests).toBe(vegetaJsonFixture(`${VEGETA_BASELINE}/report.json`).report.requests);
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
