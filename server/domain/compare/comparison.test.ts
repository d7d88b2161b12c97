import { describe, expect, it } from "vitest";
import { comparableRun, p95Endpoints } from "./comparable-run.fixture";
import { historyKey, trendValues, trendValuesSinceChanges } from "./comparison";

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
