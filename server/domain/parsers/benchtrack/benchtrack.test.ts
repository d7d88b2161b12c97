import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ParsedRun } from "../../run";
import { parseBenchtrack, runInputSchema } from "./benchtrack";
import { runDocumentSchema, toBenchtrackDocument } from "./benchtrack-document";
import { filesIn, readFixture, readFixtureJson, roundsOf } from "../fixtures/read-fixture";
import { parseGhz } from "../ghz/ghz";
import { parseK6HandleSummary } from "../k6/k6-handle-summary";
import { parseK6SummaryExport } from "../k6/k6-summary";
import { parseLocustCsv } from "../locust/locust-csv";
import { parseLocustJson } from "../locust/locust-json";
import { errorOf } from "../fixtures/input-error-of";

/** The example in docs/architecture.md ("The Benchtrack JSON format"), verbatim. */
const DOCUMENTED_EXAMPLE = {
  schema: "benchtrack/v1",
  tool: "custom-go-loadtester",
  label: "baseline",
  round: 1,
  startedAt: "2025-11-10T09:00:00Z",
  durationSeconds: 30,
  environment: {
    git: { commit: "9f1c2e7", branch: "main", pullRequest: 42 },
    ci: { buildUrl: "https://ci.example/build/1" },
    host: { name: "perf-1", cpus: 16, memoryGb: 32 },
    config: { concurrency: 2, rate: 3, protocol: "grpc" },
    attributes: { db: "postgres15" },
  },
  endpoints: [
    {
      name: "GetListing",
      protocol: "grpc",
      requests: 89,
      failures: 0,
      throughput: 2.87,
      latency: { unit: "ms", mean: 0.76, p50: 0.74, p95: 0.87, p99: 1.11 },
      metrics: { cpu: { value: 12.7, unit: "%", better: "lower" } },
    },
  ],
  metrics: { memory: { value: 101, unit: "MB", better: "lower" } },
};

describe("parseBenchtrack", () => {
  it("reads the documented example", () => {
    const run = parseBenchtrack(DOCUMENTED_EXAMPLE);
    expect(run).toMatchObject({ format: "benchtrack", tool: "custom-go-loadtester", label: "baseline", round: 1, durationSeconds: 30 });
    expect(run.environment.git).toEqual({ commit: "9f1c2e7", branch: "main", pullRequest: 42, repoUrl: null });
    expect(run.environment.attributes).toEqual({ db: "postgres15" });
    expect(run.endpoints[0]?.latency).toEqual({ minMs: null, meanMs: 0.76, maxMs: null, stdDevMs: null, percentiles: { "50": 0.74, "95": 0.87, "99": 1.11 } });
    expect(run.endpoints[0]?.metrics.cpu).toEqual({ value: 12.7, unit: "%", better: "lower" });
    expect(run.metrics.memory?.value).toBe(101);
    // One endpoint: the aggregate is that endpoint.
    expect(run.aggregate.latency.percentiles["95"]).toBe(0.87);
    expect(run.aggregate.requests).toBe(89);
  });

  it("reads the same example the docs show", () => {
    const doc = readFileSync(new URL("../../../../docs/architecture.md", import.meta.url), "utf8");
    const block = /The example the parser's test reads verbatim:\s*```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(JSON.parse(block ?? "null")).toEqual(DOCUMENTED_EXAMPLE);
  });

  it.each([
    ["s", 0.25, 250],
    ["ms", 250, 250],
    ["us", 250_000, 250],
    ["ns", 250_000_000, 250],
  ] as const)("converts latency in %s to ms", (unit, value, expectedMs) => {
    const run = parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "a", latency: { unit, p99: value, "p99.9": value, max: value }, histogram: { unit, buckets: [{ le: value, count: 3 }] } }] });
    const latency = run.endpoints[0]?.latency;
    expect(latency?.percentiles["99"]).toBeCloseTo(expectedMs, 9);
    expect(latency?.percentiles["99.9"]).toBeCloseTo(expectedMs, 9);
    expect(latency?.maxMs).toBeCloseTo(expectedMs, 9);
    expect(run.endpoints[0]?.histogram?.[0]?.upperMs).toBeCloseTo(expectedMs, 9);
  });

  it("uses a given summary as the aggregate, else sums counts and leaves percentiles empty", () => {
    const endpoints = [
      { name: "a", requests: 10, failures: 1, throughput: 5, latency: { mean: 2, p95: 3 } },
      { name: "b", requests: 30, failures: 0, throughput: 15, latency: { mean: 4, p95: 9 } },
    ];
    const summed = parseBenchtrack({ schema: "benchtrack/v1", endpoints });
    expect(summed.aggregate).toMatchObject({ name: "(all)", requests: 40, failures: 1, throughput: 20 });
    expect(summed.aggregate.latency.meanMs).toBe(3.5); // (2×10 + 4×30) / 40
    expect(summed.aggregate.latency.percentiles).toEqual({});
    const given = parseBenchtrack({ schema: "benchtrack/v1", endpoints, summary: { requests: 40, latency: { unit: "s", p95: 0.008 } } });
    expect(given.aggregate.latency.percentiles["95"]).toBe(8);
    expect(given.aggregate.name).toBe("(all)");
  });

  it.each([
    ["a wrong schema id", { schema: "benchtrack/v2", endpoints: [{ name: "a" }] }, "schema"],
    ["an endpoint without a name", { schema: "benchtrack/v1", endpoints: [{ requests: 1 }] }, "endpoints[0].name"],
    ["a number as text", { schema: "benchtrack/v1", endpoints: [{ name: "a", requests: "12" }] }, "endpoints[0].requests"],
    ["a negative latency", { schema: "benchtrack/v1", endpoints: [{ name: "a", latency: { p95: -1 } }] }, "endpoints[0].latency.p95"],
    ["a key that is no percentile", { schema: "benchtrack/v1", endpoints: [{ name: "a", latency: { p101: 1 } }] }, "endpoints[0].latency.p101"],
    ["an unknown unit", { schema: "benchtrack/v1", endpoints: [{ name: "a", latency: { unit: "min" } }] }, "endpoints[0].latency.unit"],
    ["no endpoints and no summary", { schema: "benchtrack/v1" }, "endpoints"],
  ])("rejects %s with its path", (_, document, path) => {
    const error = errorOf(() => parseBenchtrack(document));
    expect(error.code).toBe("malformed");
    expect(error.details.map((d) => d.path)).toContain(path);
  });
});

describe("runInputSchema as JSON Schema", () => {
  it("converts for /api/v1/schema/run.json, with descriptions", () => {
    const schema = z.toJSONSchema(runInputSchema, { io: "input" });
    expect(JSON.stringify(schema)).toContain("benchtrack/v1");
    expect(JSON.stringify(schema)).toContain("Requests per second.");
    expect(() => z.toJSONSchema(runDocumentSchema)).not.toThrow();
  });
});

function fixtureRuns(): [string, ParsedRun][] {
  const runs: [string, ParsedRun][] = [];
  for (const round of roundsOf("k6")) {
    runs.push([`k6 ${round} summary`, parseK6SummaryExport(readFixtureJson(`k6/${round}/summary.json`))]);
    runs.push([`k6 ${round} handle`, parseK6HandleSummary(readFixtureJson(`k6/${round}/handle-summary.json`))]);
  }
  for (const round of roundsOf("locust")) {
    runs.push([`locust ${round} json`, parseLocustJson(readFixtureJson(`locust/${round}/locust.json`))]);
    const names = filesIn(`locust/${round}`).filter((f) => f.endsWith(".csv"));
    runs.push([`locust ${round} csv`, parseLocustCsv(names.map((name) => ({ name, text: readFixture(`locust/${round}/${name}`) })))]);
  }
  for (const round of roundsOf("ghz")) {
    runs.push([`ghz ${round}`, parseGhz(filesIn(`ghz/${round}`).map((f) => readFixtureJson(`ghz/${round}/${f}`)))]);
  }
  return runs;
}

describe.each(fixtureRuns())("toBenchtrackDocument of %s", (_, run) => {
  const document = toBenchtrackDocument(run);

  it("matches runDocumentSchema, with errorRate and the aggregate", () => {
    expect(runDocumentSchema.safeParse(document).success).toBe(true);
    expect(document.aggregate.requests).toBe(run.aggregate.requests);
    for (const [index, endpoint] of document.endpoints.entries()) {
      const source = run.endpoints[index];
      const expected = source?.requests && source.failures !== null ? source.failures / source.requests : null;
      expect(endpoint.errorRate).toBe(expected);
      expect(endpoint.latency.p95).toBe(source?.latency.percentiles["95"]);
    }
  });

  it("re-uploads as the same run", () => {
    const again = parseBenchtrack(JSON.parse(JSON.stringify(document)));
    expect({ ...again, format: run.format }).toEqual(run);
  });
});
