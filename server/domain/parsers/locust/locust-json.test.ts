import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InputError } from "../../input-error";
import { readFixture, readFixtureJson, roundsOf } from "../fixtures/read-fixture";
import { locustPercentile } from "./locust-histogram";
import { parseLocustJson } from "./locust-json";

const entryView = z.array(
  z.object({
    name: z.string(),
    num_requests: z.number(),
    num_failures: z.number(),
    total_response_time: z.number(),
    min_response_time: z.number(),
    max_response_time: z.number(),
    response_times: z.record(z.string(), z.number()),
  }),
);

describe.each(roundsOf("locust"))("Locust --json of %s", (round) => {
  const document = readFixtureJson(`locust/${round}/locust.json`);
  const entries = entryView.parse(document);
  const run = parseLocustJson(document);

  it("reads each endpoint's counts and times back", () => {
    expect(run.format).toBe("locust-json");
    expect(run.endpoints.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    for (const entry of entries) {
      const endpoint = run.endpoints.find((e) => e.name === entry.name);
      expect(endpoint?.requests).toBe(entry.num_requests);
      expect(endpoint?.failures).toBe(entry.num_failures);
      expect(endpoint?.latency.meanMs).toBe(entry.total_response_time / entry.num_requests);
      expect(endpoint?.latency.minMs).toBe(entry.min_response_time);
      expect(endpoint?.latency.maxMs).toBe(entry.max_response_time);
      expect(endpoint?.histogram?.reduce((sum, b) => sum + b.count, 0)).toBe(entry.num_requests);
    }
  });

  it("builds the aggregate by summing counts and merging histograms", () => {
    const total = entries.reduce((sum, e) => sum + e.num_requests, 0);
    expect(run.aggregate.requests).toBe(total);
    expect(run.aggregate.failures).toBe(entries.reduce((sum, e) => sum + e.num_failures, 0));
    expect(run.aggregate.histogram?.reduce((sum, b) => sum + b.count, 0)).toBe(total);
    expect(run.aggregate.latency.maxMs).toBe(Math.max(...entries.map((e) => e.max_response_time)));
  });

  it("spans the run from the first start to the last request", () => {
    expect(run.durationSeconds).toBeGreaterThan(10);
    expect(run.durationSeconds).toBeLessThan(16);
    expect(run.aggregate.throughput).toBeCloseTo((run.aggregate.requests ?? 0) / (run.durationSeconds ?? 1), 9);
  });
});

describe("Locust --json against --csv of the same run", () => {
  it("gives the CSV's percentiles wherever both counted the same requests", () => {
    // The JSON is printed after --stop-timeout, so some endpoints have a few more requests than the CSV.
    let compared = 0;
    for (const round of roundsOf("locust")) {
      const run = parseLocustJson(readFixtureJson(`locust/${round}/locust.json`));
      const rows = parse<Record<string, string>>(readFixture(`locust/${round}/locust_stats.csv`), { columns: true });
      for (const row of rows) {
        const endpoint = row.Name === "Aggregated" ? run.aggregate : run.endpoints.find((e) => e.name === row.Name);
        if (!endpoint || endpoint.requests !== Number(row["Request Count"])) continue;
        compared++;
        for (const p of ["50", "66", "75", "80", "90", "95", "98", "99", "99.9", "99.99"]) {
          expect(endpoint.latency.percentiles[p], `${round} ${row.Name} ${p}%`).toBe(Number(row[`${p}%`]));
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(4); // 4 rows over the 6 rounds have equal counts
  });
});

describe("locustPercentile", () => {
  it("follows Locust's walk down from the slowest bucket (hand-computed)", () => {
    // 10 requests: 1 ms ×5, 2 ms ×3, 9 ms ×2. The answer is the slowest bucket with at most ⌊10 × p⌋
    // requests in faster buckets: p50 → 5 allowed, 5 are faster than 2 ms → 2; p40 → 4 allowed → 1;
    // p80 → 8 allowed, 8 are faster than 9 ms → 9.
    const histogram = [{ upperMs: 1, count: 5 }, { upperMs: 2, count: 3 }, { upperMs: 9, count: 2 }];
    expect(locustPercentile(histogram, 0.5)).toBe(2);
    expect(locustPercentile(histogram, 0.4)).toBe(1);
    expect(locustPercentile(histogram, 0.8)).toBe(9);
    expect(locustPercentile([], 0.5)).toBeNull();
  });
});

describe("Locust --json errors", () => {
  it("rejects a wrongly typed entry with its path", () => {
    try {
      parseLocustJson([{ name: "x", num_requests: "3" }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      if (error instanceof InputError) expect(error.details.map((d) => d.path)).toContain("[0].num_requests");
    }
  });
});
