import { describe, expect, it } from "vitest";
import { comparableRun, p95Endpoints } from "./comparable-run.fixture";
import { historyKey, lazyTrendValues, trendValues, trendValuesSinceChanges } from "./series-history";
import { parseUpload } from "../parsers";
import { fixtureUploads } from "../parsers/fixtures/fixture-uploads";
import { readFixture } from "../parsers/fixtures/read-fixture";

/** Runs one hour apart, each measuring GetListing and Search at these p95s (ms). */
function runs(values: readonly [number, number][]) {
  return values.map(([getListing, search], i) => ({
    runId: `r${i}`,
    time: i * 3_600_000,
    run: comparableRun(`r${i}`, { endpoints: p95Endpoints({ GetListing: getListing, Search: search }) }),
  }));
}

describe("trendValuesSinceChanges", () => {
  const history = runs([
    [10, 50],
    [11, 51],
    [20, 49],
    [21, 50],
  ]);

  it("is trendValues when no change is known", () => {
    expect(trendValuesSinceChanges(history, [], Number.POSITIVE_INFINITY)).toEqual(trendValues(history.map(({ run }) => run)));
  });

  it("cuts each (endpoint, metric) at its own recorded change, and every one at a change marker", () => {
    const recorded = trendValuesSinceChanges(history, [{ endpoint: "GetListing", metric: "p95", runId: "r2" }], 10 * 3_600_000);
    expect(recorded.get(historyKey("GetListing", "p95"))).toEqual([20, 21]);
    expect(recorded.get(historyKey("Search", "p95"))).toEqual([50, 51, 49, 50]);
    const marker = trendValuesSinceChanges(history, [{ at: 2.5 * 3_600_000 }], 10 * 3_600_000);
    expect(marker.get(historyKey("GetListing", "p95"))).toEqual([21]);
    expect(marker.get(historyKey("Search", "p95"))).toEqual([50]);
    // A marker after the history and before the judged run leaves nothing to learn from.
    expect(trendValuesSinceChanges(history, [{ at: 5 * 3_600_000 }], 6 * 3_600_000).get(historyKey("Search", "p95"))).toEqual([]);
  });
});

describe("lazyTrendValues", () => {
  // Every real tool output read as a run (their custom metrics, benchmarks, percentiles of every spelling):
  // two series of alike runs, so each key holds the values of several runs in order.
  const parsed = fixtureUploads().map((upload) => parseUpload({ files: upload.files.map(({ path, name }) => ({ name, text: readFixture(path) })) }).run);
  const series = [parsed, [...parsed].reverse()];

  it.each(series.map((runs, index) => [index, runs] as const))("answers every key as trendValues does (series %i)", (_, runs) => {
    const whole = trendValues(runs);
    const lazy = lazyTrendValues(runs);
    expect(whole.size).toBeGreaterThan(100);
    for (const [key, values] of whole) expect(lazy.get(key), key).toEqual(values);
    // A metric no run reports, and one trendValues never keeps (max), have no history.
    expect(lazy.get(historyKey(parsed[0]!.endpoints[0]!.name, "metrics.no-such-metric"))).toBeUndefined();
    expect(lazy.get(historyKey(parsed[0]!.endpoints[0]!.name, "max"))).toBeUndefined();
  });
});
