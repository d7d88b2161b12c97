import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { InputError } from "../../input-error";
import { expectedPercentile } from "../fixtures/expected-stats";
import { errorOfAsync } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson, streamFixtureLines, streamTextLines } from "../fixtures/read-fixture";
import { parseK6Ndjson } from "./k6-ndjson";

const POINTS = "k6/baseline/short-ndjson/points.ndjson";


function parseError(text: string): Promise<InputError> {
  return errorOfAsync(() => parseK6Ndjson(streamTextLines(text)));
}

/** The test's own reading of the raw points: durations per name tag, and the span. */
function independentReading(text: string) {
  const point = z.object({
    type: z.string(),
    metric: z.string(),
    data: z.object({ time: z.string(), value: z.number(), tags: z.record(z.string(), z.string()).nullish() }).partial(),
  });
  const durations = new Map<string, number[]>();
  const failed = new Map<string, number>();
  const times: number[] = [];
  for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
    const entry = point.parse(JSON.parse(line));
    if (entry.type !== "Point") continue;
    times.push(Date.parse(entry.data.time ?? ""));
    const name = entry.data.tags?.name ?? "";
    if (entry.metric === "http_req_duration") durations.set(name, [...(durations.get(name) ?? []), entry.data.value ?? 0]);
    if (entry.metric === "http_req_failed") failed.set(name, (failed.get(name) ?? 0) + (entry.data.value ?? 0));
  }
  return { durations, failed, spanSeconds: (Math.max(...times) - Math.min(...times)) / 1000 };
}

describe("parseK6Ndjson on the short-ndjson fixture", async () => {
  const run = await parseK6Ndjson(streamFixtureLines(POINTS));
  const raw = independentReading(readFixture(POINTS));

  it("groups requests by the name tag", () => {
    expect(run.format).toBe("k6-ndjson");
    expect(run.endpoints.map((e) => e.name).sort()).toEqual(
      ["CheckStockAvailability", "GetAllCategories", "GetListing", "ListListings", "SearchListings"],
    );
  });

  it("computes exact per-endpoint percentiles equal to an independent computation from the points", () => {
    for (const endpoint of run.endpoints) {
      const samples = raw.durations.get(endpoint.name) ?? [];
      expect(endpoint.requests).toBe(samples.length);
      expect(endpoint.failures).toBe(raw.failed.get(endpoint.name));
      for (const p of [50, 90, 95, 99, 99.9]) {
        expect(endpoint.latency.percentiles[String(p)]).toBeCloseTo(expectedPercentile(samples, p), 9);
      }
      expect(endpoint.latency.minMs).toBe(Math.min(...samples));
      expect(endpoint.latency.maxMs).toBe(Math.max(...samples));
      expect(endpoint.throughput).toBeCloseTo(samples.length / raw.spanSeconds, 9);
      expect(endpoint.statusCodes).toEqual({ "200": samples.length });
      expect(endpoint.method).toBe(endpoint.name === "CheckStockAvailability" ? "POST" : "GET");
    }
  });

  it("keeps an HDR histogram per endpoint and for the aggregate: every sample counted, the exact p95 inside its buckets", () => {
    const all = [...raw.durations.values()].flat();
    for (const result of [...run.endpoints, run.aggregate]) {
      const samples = result.name === run.aggregate.name ? all : raw.durations.get(result.name) ?? [];
      const histogram = result.histogram ?? [];
      expect(histogram.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(samples.length);
      expect(histogram.map((b) => b.upperMs)).toEqual([...histogram.map((b) => b.upperMs)].sort((a, b) => a - b));
      // p95 interpolates between the samples of rank floor(r) and ceil(r): it lies between the lower edge
      // of the first one's bucket and the upper edge of the second one's (HDR records whole µs: ±0.0005 ms).
      const rank = 0.95 * (samples.length - 1);
      const p95 = expectedPercentile(samples, 95);
      const bucketOf = (index: number): number => {
        let seen = 0;
        return histogram.findIndex((bucket) => (seen += bucket.count) > index);
      };
      const low = bucketOf(Math.floor(rank));
      const high = bucketOf(Math.ceil(rank));
      const lowerEdge = low > 0 ? histogram[low - 1]?.upperMs ?? 0 : 0;
      expect(low).toBeGreaterThanOrEqual(0);
      expect(p95).toBeGreaterThan(lowerEdge - 0.0005);
      expect(p95).toBeLessThanOrEqual((histogram[high]?.upperMs ?? Number.NaN) + 0.0005);
    }
  });

  it("matches k6's own summary of the same run", () => {
    const summary = z
      .object({ metrics: z.object({ http_req_duration: z.record(z.string(), z.unknown()), http_reqs: z.object({ count: z.number(), rate: z.number() }) }) })
      .parse(readFixtureJson("k6/baseline/short-ndjson/summary.json"));
    const duration = summary.metrics.http_req_duration;
    // Same samples, same interpolation: k6's aggregate percentiles are reproduced, not just approached.
    expect(run.aggregate.latency.percentiles["50"]).toBeCloseTo(z.number().parse(duration.med), 9);
    expect(run.aggregate.latency.percentiles["95"]).toBeCloseTo(z.number().parse(duration["p(95)"]), 9);
    expect(run.aggregate.latency.percentiles["99"]).toBeCloseTo(z.number().parse(duration["p(99)"]), 9);
    expect(run.aggregate.latency.meanMs).toBeCloseTo(z.number().parse(duration.avg), 9);
    expect(run.aggregate.requests).toBe(summary.metrics.http_reqs.count);
    // k6 divides by the test-run duration, we by first → last point: close, not equal.
    expect(Math.abs((run.aggregate.throughput ?? 0) - summary.metrics.http_reqs.rate)).toBeLessThan(1);
    expect(run.aggregate.failures).toBe(0);
  });

  it("keeps checks, start time, global tags and declared-threshold note", () => {
    expect(run.checks).toHaveLength(7);
    expect(run.checks.reduce((sum, c) => sum + c.passes, 0)).toBe(217);
    expect(run.startedAt).toBe("2026-11-22T10:11:03.930Z");
    expect(run.environment.attributes).toEqual({ round: "s", testid: "listings-baseline-rounds", variant: "baseline" });
    expect(run.environment.config.vus_max).toBe(5);
    expect(run.metrics.iterations?.value).toBe(31);
    expect(run.notes.join(" ")).toMatch(/threshold/);
  });
});

describe("parseK6Ndjson grouping and errors", () => {
  const point = (metric: string, value: number, tags: Record<string, string>, time = "2026-11-22T10:00:00Z") =>
    JSON.stringify({ metric, type: "Point", data: { time, value, tags } });

  it("falls back to method + url without a name tag and counts failed points", async () => {
    const tags = { method: "GET", url: "http://x/a", status: "500" };
    const text = [
      point("http_req_duration", 10, tags),
      point("http_reqs", 1, tags),
      point("http_req_failed", 1, tags),
      point("http_req_duration", 20, { ...tags, status: "200" }, "2026-11-22T10:00:02Z"),
      point("http_reqs", 1, { ...tags, status: "200" }, "2026-11-22T10:00:02Z"),
      point("http_req_failed", 0, { ...tags, status: "200" }, "2026-11-22T10:00:02Z"),
    ].join("\n");
    const run = await parseK6Ndjson(streamTextLines(text));
    expect(run.endpoints).toHaveLength(1);
    expect(run.endpoints[0]).toMatchObject({ name: "GET http://x/a", requests: 2, failures: 1, throughput: 1, statusCodes: { "200": 1, "500": 1 } });
    expect(run.endpoints[0]?.latency.percentiles["50"]).toBe(15);
  });

  it("points at the line of invalid JSON", async () => {
    const error = await parseError(`${point("http_reqs", 1, {})}\n\n{"type":"Point",`);
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("line 3");
  });

  it("points at the line and field of a wrongly typed point", async () => {
    const error = await parseError(`${point("http_reqs", 1, {})}\n{"type":"Point","metric":"x","data":{"time":"t","value":"fast"}}`);
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("line 2: data.value");
  });

  it("points at the line of a negative request duration", async () => {
    const error = await parseError(`${point("http_reqs", 1, {})}\n${point("http_req_duration", -2, { name: "A" })}`);
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("line 2: data.value");
  });

  it("keeps a histogram for samples it never saw before (numbers and names built here)", async () => {
    const text = [3.25, 180, 180.1, 2500].map((ms, i) => point("http_req_duration", ms, { name: "Z" }, `2026-11-22T10:00:0${i}Z`)).join("\n");
    const result = await parseK6Ndjson(streamTextLines(text));
    const histogram = result.endpoints[0]?.histogram ?? [];
    expect(histogram.filter((b) => b.count > 0).map((b) => b.count)).toEqual([1, 2, 1]);
    expect(result.aggregate.histogram).toEqual(histogram);
  });

  it("rejects empty input", async () => {
    expect((await parseError("")).code).toBe("malformed");
    expect((await parseError("\n\n")).code).toBe("malformed");
  });

  it("refuses more than 1,000 distinct endpoints while streaming", async () => {
    const lines = Array.from({ length: 1001 }, (_, i) => point("http_req_duration", 1, { method: "GET", url: `http://x/${i}` }));
    expect((await parseError(lines.join("\n"))).code).toBe("too_large");
  });
});
