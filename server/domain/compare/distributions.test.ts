import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseUpload } from "../parsers";
import type { HistogramBucket, ParsedRun } from "../run";
import { AGGREGATE_NAME } from "../run";
import { isInsufficient } from "../stats/insufficient";
import { latencyHistogramOf } from "../stats/latency-histogram";
import type { ComparableRun } from "./compare-runs";
import { compareDistributions, compareEndpointDistribution, addAlignedHistograms, toCdfSeries } from "./distributions";

const FIXTURES = join(import.meta.dirname, "../parsers/fixtures");

function comparable(id: string, run: ParsedRun): ComparableRun {
  return { id, label: run.label, round: run.round, startedAt: "2026-11-22T10:00:00Z", format: run.format, tool: run.tool, durationSeconds: run.durationSeconds, hostName: null, config: {}, aggregate: run.aggregate, endpoints: run.endpoints, metrics: run.metrics };
}

/** One ghz round: its five per-method JSON reports as one multipart upload, as CI would send them. */
function ghzRound(side: "baseline" | "managedasync", round: number): ComparableRun {
  const folder = join(FIXTURES, "ghz", side, `round${round}`);
  const files = readdirSync(folder).filter((name) => name.endsWith(".json")).sort().map((name) => ({ name, text: readFileSync(join(folder, name), "utf8") }));
  return comparable(`${side}-${round}`, parseUpload({ files }).run);
}

function fixtureRun(path: string, id: string): ComparableRun {
  return comparable(id, parseUpload({ files: [{ name: null, text: readFileSync(join(FIXTURES, path), "utf8") }] }).run);
}

const total = (buckets: readonly HistogramBucket[]) => buckets.reduce((sum, bucket) => sum + bucket.count, 0);

describe("addAlignedHistograms", () => {
  it("adds HDR histograms bucket by bucket into the histogram of the pooled samples", () => {
    const a = [3.2, 4.1, 4.15, 9.9, 12.5, 40];
    const b = [3.21, 5, 7.7, 12.6, 120];
    const pooled = addAlignedHistograms([latencyHistogramOf(a)!, latencyHistogramOf(b)!]);
    if (isInsufficient(pooled)) throw new Error(pooled.reason);
    const direct = latencyHistogramOf([...a, ...b])!;
    // Same counts at the same edges (the pooled one may keep extra empty edges).
    expect(pooled.buckets.filter((bucket) => bucket.count > 0)).toEqual(direct.filter((bucket) => bucket.count > 0));
  });

  it("refuses histograms whose buckets do not line up (hey's text report picks edges per run)", () => {
    const result = addAlignedHistograms([
      [
        { upperMs: 10, count: 4 },
        { upperMs: 20, count: 1 },
      ],
      [
        { upperMs: 15, count: 3 },
        { upperMs: 30, count: 2 },
      ],
    ]);
    expect(isInsufficient(result) && result.reason).toContain("different bucket edges");
  });

  it("adds exact-value histograms (Locust) whatever their edges", () => {
    const result = addAlignedHistograms(
      [
        [
          { upperMs: 5, count: 2 },
          { upperMs: 7, count: 1 },
        ],
        [{ upperMs: 6, count: 3 }],
      ],
      { exactValues: true },
    );
    expect(result).toEqual({
      status: "ok",
      buckets: [
        { upperMs: 5, count: 2 },
        { upperMs: 6, count: 3 },
        { upperMs: 7, count: 1 },
      ],
    });
  });
});

describe("toCdfSeries", () => {
  it("steps from 0 to 1 on a log grid and keeps the asked-for point", () => {
    const base = latencyHistogramOf(Array.from({ length: 1000 }, (_, i) => 1 + i * 0.37))!;
    const head = latencyHistogramOf(Array.from({ length: 1000 }, (_, i) => 1.5 + i * 0.41))!;
    const series = toCdfSeries(base, head, { maxPoints: 50, alsoAt: [100] });
    expect(series.length).toBe(51);
    expect(series.some((point) => point.ms === 100)).toBe(true);
    expect(series.at(-1)).toMatchObject({ base: 1, head: 1 });
    for (let index = 1; index < series.length; index++) {
      expect(series[index]!.base).toBeGreaterThanOrEqual(series[index - 1]!.base);
      expect(series[index]!.head).toBeGreaterThanOrEqual(series[index - 1]!.head);
    }
  });
});

describe("compareDistributions on the real ghz fixtures (3 baseline rounds vs 3 ManagedAsync rounds)", () => {
  const base = [1, 2, 3].map((round) => ghzRound("baseline", round));
  const head = [1, 2, 3].map((round) => ghzRound("managedasync", round));
  const result = compareDistributions(base, head);

  it("pools every request of every round, on the aggregate and each method", () => {
    const aggregate = result.endpoints[0]!;
    expect(aggregate.endpoint).toBe(AGGREGATE_NAME);
    if (aggregate.status !== "ok") throw new Error(aggregate.reason);
    const requests = (runs: ComparableRun[]) => runs.reduce((sum, run) => sum + total(run.aggregate.histogram!), 0);
    expect(aggregate.base.count).toBe(requests(base));
    expect(aggregate.head.count).toBe(requests(head));
    expect(aggregate.base).toMatchObject({ runs: 3, runsWithHistogram: 3 });
    expect(result.endpoints.map((entry) => entry.endpoint)).toEqual([AGGREGATE_NAME, ...base[0]!.endpoints.map((endpoint) => endpoint.name)]);
  });

  it("finds ManagedAsync's shape shifted to slower latencies, and names the method that moved most", () => {
    const aggregate = result.endpoints[0]!;
    if (aggregate.status !== "ok") throw new Error(aggregate.reason);
    expect(aggregate.test.statistic).toBeGreaterThan(0.1);
    expect(aggregate.test.signedGap).toBeLessThan(0); // fewer head requests at or below the gap: head slower
    expect(aggregate.test.pValue).toBeLessThan(1e-6);
    const p50 = aggregate.quantiles.find((quantile) => quantile.percentile === 50)!;
    expect(p50.headMs!).toBeGreaterThan(p50.baseMs!);
    const statistics = result.endpoints.flatMap((entry) => (entry.status === "ok" && entry.endpoint !== AGGREGATE_NAME ? [entry.test.statistic] : []));
    const biggest = result.endpoints.find((entry) => entry.endpoint === result.biggestChange);
    expect(biggest?.status === "ok" && biggest.test.statistic).toBe(Math.max(...statistics));
  });

  it("says so, instead of drawing, when a side has no histogram", () => {
    const summaryOnly = fixtureRun("k6/baseline/round1/summary.json", "k6-summary");
    const ndjson = fixtureRun("k6/baseline/short-ndjson/points.ndjson", "k6-ndjson");
    const entry = compareEndpointDistribution([summaryOnly], [ndjson], AGGREGATE_NAME);
    expect(entry.status).toBe("unavailable");
    expect(entry.status === "unavailable" && entry.reason).toMatch(/^No base run carries a latency histogram/);
    expect(entry.head).toMatchObject({ runs: 1, runsWithHistogram: 1 });
  });

  it("does not compare runs of different tools", () => {
    const entry = compareEndpointDistribution(base, [fixtureRun("k6/baseline/short-ndjson/points.ndjson", "k6")], AGGREGATE_NAME);
    expect(entry.status === "unavailable" && entry.reason).toContain("different tools");
  });

  it("compares Locust rounds as exact values", () => {
    const locustBase = [2, 3].map((round) => fixtureRun(`locust/baseline/round${round}/locust.json`, `lb${round}`));
    const locustHead = [2, 3].map((round) => fixtureRun(`locust/managedasync/round${round}/locust.json`, `lh${round}`));
    const entry = compareEndpointDistribution(locustBase, locustHead, AGGREGATE_NAME);
    if (entry.status !== "ok") throw new Error(entry.reason);
    expect(entry.base.count).toBe(locustBase.reduce((sum, run) => sum + total(run.aggregate.histogram!), 0));
    expect(entry.test.statistic).toBeGreaterThan(0);
  });
});

describe("addAlignedHistograms with a histogram stored before uploads were checked for ascending edges", () => {
  it("adds none whose edges repeat or fall back, instead of adding them wrongly", () => {
    const fallsBack = [
      { upperMs: 2, count: 1 },
      { upperMs: 10, count: 0 },
      { upperMs: 3, count: 0 },
      { upperMs: 8, count: 5 },
    ];
    const repeats = [
      { upperMs: 5, count: 1 },
      { upperMs: 5, count: 2 },
    ];
    for (const histogram of [fallsBack, repeats]) {
      const pooled = addAlignedHistograms([histogram, [{ upperMs: 5, count: 4 }]]);
      expect(isInsufficient(pooled) ? pooled.reason : "pooled").toContain("do not ascend");
    }
    // The same buckets in order pool (aligned edges): the check refuses only what cannot be added.
    expect(isInsufficient(addAlignedHistograms([[{ upperMs: 5, count: 1 }, { upperMs: 8, count: 2 }], [{ upperMs: 5, count: 4 }, { upperMs: 8, count: 1 }]]))).toBe(false);
  });
});
