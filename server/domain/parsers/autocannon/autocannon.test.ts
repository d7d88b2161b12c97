import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME } from "../../run";
import { autocannonResultSchema, parseAutocannonJson } from "./autocannon";
import { errorOf } from "../fixtures/input-error-of";
import { readFixtureJson } from "../fixtures/read-fixture";

interface AutocannonFile {
  url: string;
  connections: number;
  pipelining: number;
  workers: number;
  duration: number;
  start: string;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Record<string, number>;
  requests: Record<string, number> & { total: number };
  throughput: Record<string, number> & { total: number };
}

function fixture(variant: string): AutocannonFile {
  return readFixtureJson(`autocannon/${variant}/round1/autocannon.json`) as AutocannonFile;
}

/** A deep copy to change in a test. */
function copyOf(file: AutocannonFile): AutocannonFile {
  return structuredClone(file);
}

describe.each(["baseline", "managedasync"])("autocannon --json of %s", (variant) => {
  const file = fixture(variant);
  const run = parseAutocannonJson(file);
  const [endpoint] = run.endpoints;

  it("names the one endpoint after the URL's path", () => {
    expect(run.format).toBe("autocannon-json");
    expect(run.tool).toBe("autocannon");
    expect(run.endpoints).toHaveLength(1);
    expect(endpoint?.name).toBe(/^https?:\/\/[^/]+(\/.*)$/.exec(file.url)?.[1]);
    expect(endpoint?.fullName).toBe(file.url);
    expect(endpoint?.protocol).toBe("http");
    expect(endpoint?.method).toBeNull();
  });

  it("reads the file's own numbers", () => {
    // Timeouts are already in `errors`; the fixtures have none, so requests are the responses.
    expect(endpoint?.requests).toBe(file.requests.total + file.errors);
    expect(endpoint?.requests).toBe(file.latency.totalCount);
    expect(endpoint?.failures).toBe(file.errors + file.non2xx);
    expect(endpoint?.throughput).toBeCloseTo(file.requests.total / file.duration, 9);
    expect(endpoint?.statusCodes).toEqual(
      Object.fromEntries(Object.entries(file.statusCodeStats).map(([code, { count }]) => [code, count])),
    );
    expect(endpoint?.latency.minMs).toBe(file.latency.min);
    expect(endpoint?.latency.meanMs).toBe(file.latency.mean);
    expect(endpoint?.latency.maxMs).toBe(file.latency.max);
    expect(endpoint?.latency.stdDevMs).toBe(file.latency.stddev);
    const percentileKeys = Object.keys(file.latency).filter((key) => /^p\d/.test(key));
    expect(percentileKeys).toHaveLength(15);
    for (const key of percentileKeys) {
      expect(endpoint?.latency.percentiles[String(Number(key.slice(1).replace("_", ".")))]).toBe(file.latency[key]);
    }
    expect(Object.keys(endpoint?.latency.percentiles ?? {})).toHaveLength(15);
    expect(endpoint?.latency.percentiles).toMatchObject({
      "0.001": file.latency.p0_001,
      "2.5": file.latency.p2_5,
      "97.5": file.latency.p97_5,
      "99.999": file.latency.p99_999,
    });
    expect(endpoint?.histogram).toBeNull();
  });

  it("makes the aggregate the same result", () => {
    const { name, fullName, ...rest } = run.aggregate;
    expect(name).toBe(AGGREGATE_NAME);
    expect(fullName).toBeNull();
    expect({ ...endpoint, name: undefined, fullName: undefined }).toEqual({
      ...rest,
      name: undefined,
      fullName: undefined,
    });
  });

  it("keeps start, duration and the stated load, not measured values, as config", () => {
    expect(run.startedAt).toBe(file.start);
    expect(run.durationSeconds).toBe(file.duration);
    expect(run.environment.config).toEqual({
      protocol: "http",
      connections: file.connections,
      pipelining: file.pipelining,
      url: file.url,
    });
    expect(run.environment.config.duration).toBeUndefined(); // only the measured `duration` is in the file
    expect(run.environment.config.workers).toBeUndefined(); // 0 workers: not a setting worth keeping
    expect(run.metrics.bytes_read_per_second).toEqual({
      value: file.throughput.total / file.duration,
      unit: "B/s",
      better: null,
    });
    expect(run.notes).toEqual([]);
  });
});

describe("autocannon --json, beyond the fixtures", () => {
  const base = fixture("baseline");

  it("reads a changed result the same way (other URL, errors, timeouts, codes, workers)", () => {
    const file = copyOf(base);
    file.url = "https://shop.example:8443/api/search?q=red%20shoes&page=2";
    file.workers = 4;
    file.pipelining = 8;
    file.errors = 7;
    file.timeouts = 3;
    file.non2xx = 31;
    file.statusCodeStats = { "200": { count: 900 }, "404": { count: 11 }, "503": { count: 20 } };
    file.requests.total = 931;
    file.latency.p99 = 77;
    file.duration = 10;
    const run = parseAutocannonJson(file);
    const [endpoint] = run.endpoints;
    expect(endpoint?.name).toBe("/api/search?q=red%20shoes&page=2");
    expect(endpoint?.fullName).toBe(file.url);
    expect(endpoint?.requests).toBe(938); // 931 responses + 7 errors
    expect(endpoint?.failures).toBe(38); // 7 errors (3 of them timeouts) + 31 non-2xx: timeouts not counted twice
    expect(endpoint?.throughput).toBeCloseTo(93.8, 9);
    expect(endpoint?.errors).toEqual({ timeout: 3, "connection error": 4 });
    expect(endpoint?.statusCodes).toEqual({ "200": 900, "404": 11, "503": 20 });
    expect(endpoint?.latency.percentiles["99"]).toBe(77);
    expect(run.environment.config).toMatchObject({ workers: 4, pipelining: 8 });
    expect(run.notes.join(" ")).toContain("7 request(s) ended in a connection error (3 of them timeouts)");
  });

  it("keeps several URLs together as the aggregate only", () => {
    const file = { ...copyOf(base), url: ["http://a.example/x", "http://a.example/y"] };
    const run = parseAutocannonJson(file);
    expect(run.endpoints).toEqual([]);
    expect(run.aggregate.requests).toBe(base.requests.total);
    expect(run.aggregate.latency.percentiles["50"]).toBe(base.latency.p50);
    expect(run.environment.config.url).toBeUndefined();
    expect(run.notes[0]).toContain("2 URLs");
  });

  it("gives no latency when nothing answered", () => {
    const file = copyOf(base);
    Object.assign(file, { errors: 50, timeouts: 0, non2xx: 0, statusCodeStats: {} });
    file.requests.total = 0;
    file.latency = { ...file.latency, min: 0, max: 0, mean: Number.NaN, stddev: Number.NaN, totalCount: 0 };
    const run = parseAutocannonJson(JSON.parse(JSON.stringify(file)));
    expect(run.aggregate.requests).toBe(50);
    expect(run.aggregate.failures).toBe(50);
    expect(run.aggregate.latency).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
  });

  it.each([
    [
      "a percentile that is not a number",
      (f: Record<string, unknown>) => ({ ...f, latency: { ...(f.latency as object), p99: "12ms" } }),
      "latency.p99",
    ],
    ["a missing requests object", (f: Record<string, unknown>) => ({ ...f, requests: undefined }), "requests"],
    ["a negative error count", (f: Record<string, unknown>) => ({ ...f, errors: -1 }), "errors"],
    ["a start that is not a date", (f: Record<string, unknown>) => ({ ...f, start: "yesterday" }), "start"],
    [
      "a status code that is not one",
      (f: Record<string, unknown>) => ({ ...f, statusCodeStats: { ok: { count: 1 } } }),
      "statusCodeStats.ok",
    ],
    ["a URL that is not one", (f: Record<string, unknown>) => ({ ...f, url: "not a url" }), "url"],
  ])("refuses %s, naming its path", (_what, change, path) => {
    const error = errorOf(() => parseAutocannonJson(change({ ...base })));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain(path);
  });

  it("refuses what is not an autocannon result", () => {
    expect(errorOf(() => parseAutocannonJson([base])).code).toBe("malformed");
    expect(autocannonResultSchema.safeParse(base).success).toBe(true);
  });
});
