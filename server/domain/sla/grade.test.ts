import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME, emptyEndpoint, type EndpointResult } from "../run";
import { gradeRun, gradeRunIfPolicy, letterFor, type SlaGrade } from "./grade";
import { slaPolicySchema, type SlaPolicyInput, type SlaTargetInput } from "./policy";

interface EndpointNumbers {
  p95?: number;
  p99?: number;
  requests?: number;
  failures?: number;
  throughput?: number;
  metrics?: EndpointResult["metrics"];
}

function endpoint(name: string, numbers: EndpointNumbers): EndpointResult {
  const percentiles: Record<string, number> = {};
  if (numbers.p95 !== undefined) percentiles["95"] = numbers.p95;
  if (numbers.p99 !== undefined) percentiles["99"] = numbers.p99;
  return {
    ...emptyEndpoint(name),
    requests: numbers.requests ?? null,
    failures: numbers.failures ?? null,
    throughput: numbers.throughput ?? null,
    latency: { minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles },
    metrics: numbers.metrics ?? {},
  };
}

function policy(input: SlaPolicyInput) {
  return slaPolicySchema.parse(input);
}

function expectGraded(grade: SlaGrade) {
  if (grade.status !== "graded") throw new Error(`expected a letter grade, got: ${grade.reason}`);
  return grade;
}

// Shaped like a ghz run of five gRPC methods: sub-millisecond to a few ms, no errors.
const ghzRun = {
  aggregate: endpoint(AGGREGATE_NAME, { p95: 2.9, p99: 4.8, requests: 445, failures: 0 }),
  endpoints: [
    endpoint("GetListing", { p95: 0.87, p99: 1.11, requests: 89, failures: 0 }),
    endpoint("ListListings", { p95: 3.1, p99: 4.9, requests: 89, failures: 0 }),
    endpoint("CreateListing", { p95: 1.8, p99: 2.6, requests: 89, failures: 0 }),
    endpoint("UpdateListing", { p95: 1.6, p99: 2.2, requests: 89, failures: 0 }),
    endpoint("DeleteListing", { p95: 0.95, p99: 1.3, requests: 89, failures: 0 }),
  ],
};

const p95Target = { metric: "p95", op: "<=", threshold: 50, unit: "ms" } satisfies SlaTargetInput;
const p99Target = { metric: "p99", op: "<=", threshold: 100, unit: "ms" } satisfies SlaTargetInput;
const errorRateTarget = { metric: "errorRate", op: "<=", threshold: 0.01 } satisfies SlaTargetInput;
const ghzPolicy = { targets: [p95Target, p99Target, errorRateTarget] } satisfies SlaPolicyInput;

describe("gradeRun: ghz-like example", () => {
  it("grades A when every check passes, 5/5 endpoints compliant", () => {
    const grade = expectGraded(gradeRun(policy(ghzPolicy), ghzRun));
    expect(grade).toMatchObject({
      letter: "A",
      score: 100,
      compliance: 1,
      passed: 15,
      evaluated: 15,
      noData: 0,
      endpointsCompliant: 5,
      endpointsEvaluated: 5,
    });
    expect(grade.checks).toHaveLength(15);
  });

  it("puts the passing check with the least headroom first", () => {
    const grade = expectGraded(gradeRun(policy(ghzPolicy), ghzRun));
    const first = grade.checks[0];
    // ListListings p95 3.1 ms against 50 ms (16×) beats its p99 4.9 against 100 (20×); zero error rates are unbounded.
    expect(first).toMatchObject({ endpoint: "ListListings", value: 3.1, threshold: 50, passed: true });
    expect(first?.headroom?.ratio).toBeCloseTo(50 / 3.1, 10);
    expect(first?.headroom?.label).toBe("16× under target");
    expect(grade.checks[1]).toMatchObject({ endpoint: "ListListings", value: 4.9, threshold: 100 });
    const errorCheck = grade.checks.find((check) => check.target.metric === "errorRate");
    expect(errorCheck?.headroom).toEqual({ ratio: null, label: "zero, under target" });
  });

  it("drops to B (14/15 = 93.3%) when one endpoint misses a tightened p99, and lists that check first", () => {
    const tightened = { targets: [p95Target, { ...p99Target, threshold: 4 }, errorRateTarget] };
    const grade = expectGraded(gradeRun(policy(tightened), ghzRun));
    expect(grade.letter).toBe("B");
    expect(grade.passed).toBe(14);
    expect(grade.evaluated).toBe(15);
    expect(grade.compliance).toBeCloseTo(14 / 15, 12);
    expect(grade.score).toBe(93.3);
    expect(grade.endpointsCompliant).toBe(4);
    expect(grade.endpointsEvaluated).toBe(5);
    const first = grade.checks[0];
    expect(first).toMatchObject({ endpoint: "ListListings", value: 4.9, threshold: 4, passed: false });
    expect(first?.headroom?.label).toBe("23% over target"); // 4.9 / 4 − 1 = 22.5%
    expect(grade.byEndpoint.find((entry) => entry.endpoint === "ListListings")).toEqual({
      endpoint: "ListListings",
      passed: 2,
      evaluated: 3,
      isCompliant: false,
    });
  });

  it("accepts latency thresholds in seconds and microseconds, compared in ms", () => {
    const grade = expectGraded(
      gradeRun(
        policy({
          targets: [
            { metric: "p95", op: "<=", threshold: 0.05, unit: "s" },
            { metric: "p99", op: "<=", threshold: 100_000, unit: "us" },
          ],
        }),
        ghzRun,
      ),
    );
    expect(grade.letter).toBe("A");
    expect(new Set(grade.checks.map((check) => check.threshold))).toEqual(new Set([50, 100]));
    expect(grade.checks.every((check) => check.unit === "ms")).toBe(true);
  });
});

describe("gradeRun: aggregate targets (second example)", () => {
  const aggregatePolicy = policy({
    targets: [
      { metric: "p95", op: "<=", threshold: 350, scope: "aggregate" },
      { metric: "p99", op: "<=", threshold: 650, scope: "aggregate" },
      { metric: "errorRate", op: "<", threshold: 0.005, scope: "aggregate" },
      { metric: "throughput", op: ">=", threshold: 900, unit: "req/s", scope: "aggregate" },
    ],
  });

  it("checks the aggregate only, once per target", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, { p95: 310, p99: 590, requests: 60_000, failures: 120, throughput: 1000 }),
      endpoints: [endpoint("GET /api/listings", { p95: 9999 })],
    };
    const grade = expectGraded(gradeRun(aggregatePolicy, run));
    expect(grade.checks.map((check) => check.endpoint)).toEqual(Array(4).fill(AGGREGATE_NAME));
    // Error rate 120 / 60000 = 0.002 < 0.005 passes; all four pass.
    expect(grade.letter).toBe("A");
    // Ratios: p99 650/590 = 1.102 < throughput 1000/900 = 1.111 < p95 350/310 = 1.129 < error rate 2.5.
    expect(grade.checks.map((check) => check.target.metric)).toEqual(["p99", "throughput", "p95", "errorRate"]);
    expect(grade.checks.map((check) => check.headroom?.label)).toEqual([
      "9.2% under target",
      "11% above target",
      "11% under target",
      "2.5× under target",
    ]);
    expect(grade.byEndpoint).toEqual([{ endpoint: AGGREGATE_NAME, passed: 4, evaluated: 4, isCompliant: true }]);
    expect(grade.endpointsEvaluated).toBe(0);
  });

  it("fails throughput below target and a strict error-rate bound at equality", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, { p95: 200, p99: 400, requests: 1000, failures: 5, throughput: 450 }),
      endpoints: [],
    };
    const grade = expectGraded(gradeRun(aggregatePolicy, run));
    expect(grade.passed).toBe(2);
    expect(grade.letter).toBe("D"); // 2/4 = 50%
    expect(grade.checks.map((check) => [check.target.metric, check.passed])).toEqual([
      ["throughput", false], // ratio 0.5: worst
      ["errorRate", false], // 0.005 < 0.005 fails, ratio 1
      ["p99", true], // 650 / 400 = 1.63
      ["p95", true], // 350 / 200 = 1.75
    ]);
    expect(grade.checks[0]?.headroom?.label).toBe("2× below target");
    expect(grade.checks[1]?.headroom?.label).toBe("at target");
  });
});

describe("gradeRun: custom metrics, scopes and weights", () => {
  it("grades metrics.<key> per endpoint and from run-level metrics for the aggregate", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, {}),
      endpoints: [
        endpoint("GetListing", { metrics: { cpu: { value: 12.7, unit: "%", better: "lower" } } }),
        endpoint("ListListings", { metrics: { cpu: { value: 85, unit: "%", better: "lower" } } }),
      ],
      metrics: { memory: { value: 101, unit: "MB", better: "lower" as const } },
    };
    const grade = expectGraded(
      gradeRun(
        policy({
          targets: [
            { metric: "metrics.cpu", op: "<=", threshold: 80, unit: "%" },
            { metric: "metrics.memory", op: "<=", threshold: 128, unit: "MB", scope: "aggregate" },
          ],
        }),
        run,
      ),
    );
    expect(grade.checks.map((check) => [check.endpoint, check.value, check.passed, check.unit])).toEqual([
      ["ListListings", 85, false, "%"],
      [AGGREGATE_NAME, 101, true, "MB"],
      ["GetListing", 12.7, true, "%"],
    ]);
    expect(grade.letter).toBe("D"); // 2/3 = 66.7%
  });

  it("treats a custom metric reported in another unit as no data", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, {}),
      endpoints: [endpoint("Worker", { metrics: { memory: { value: 1.2, unit: "GB", better: "lower" } } })],
    };
    const grade = gradeRun(
      policy({ targets: [{ metric: "metrics.memory", op: "<=", threshold: 512, unit: "MB" }] }),
      run,
    );
    expect(grade.status).toBe("no-data");
    expect(grade.checks[0]?.noDataReason).toBe('metric "memory" reported in GB, target is in MB');
  });

  it("limits a target to endpoints matching a glob, taken literally apart from * and ?", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, {}),
      endpoints: [
        endpoint("GET /api/listings", { p95: 10 }),
        endpoint("GET /api/listings/:id", { p95: 20 }),
        endpoint("POST /api/listings", { p95: 30 }),
        endpoint("GET /api/(admin)", { p95: 40 }),
      ],
    };
    const grade = gradeRun(
      policy({
        targets: [
          { metric: "p95", op: "<=", threshold: 100, scope: { match: "GET /api/listings*" } },
          { metric: "p95", op: "<=", threshold: 100, scope: { match: "GET /api/(admin)" } },
          { metric: "p95", op: "<=", threshold: 100, scope: { match: "DELETE *" } },
        ],
      }),
      run,
    );
    expect(grade.checks.map((check) => check.endpoint).sort()).toEqual([
      "GET /api/(admin)",
      "GET /api/listings",
      "GET /api/listings/:id",
    ]);
    expect(grade.notes).toEqual(['p95 <= 100 ms (matching "DELETE *") matched no endpoint']);
  });

  it("weights checks in compliance", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, {}),
      endpoints: [endpoint("A", { p95: 10, p99: 300 })],
    };
    const grade = expectGraded(
      gradeRun(
        policy({
          targets: [
            { metric: "p95", op: "<=", threshold: 50, weight: 3 },
            { metric: "p99", op: "<=", threshold: 100 },
          ],
        }),
        run,
      ),
    );
    expect(grade.compliance).toBe(0.75);
    expect(grade.letter).toBe("C");
    expect(grade.passed).toBe(1);
  });
});

describe("gradeRun: missing data", () => {
  it("excludes no-data checks from compliance but still lists them, last", () => {
    const run = {
      aggregate: endpoint(AGGREGATE_NAME, {}),
      endpoints: [
        endpoint("Reported", { p95: 10, p99: 20, requests: 100, failures: 0 }),
        endpoint("NoP99", { p95: 10, requests: 0, failures: 0 }),
      ],
    };
    const grade = expectGraded(gradeRun(policy(ghzPolicy), run));
    expect(grade).toMatchObject({ letter: "A", passed: 4, evaluated: 4, noData: 2 });
    expect(grade.checks.slice(-2).map((check) => [check.endpoint, check.passed, check.noDataReason])).toEqual([
      ["NoP99", null, "p99 not reported"],
      ["NoP99", null, "no requests"],
    ]);
  });

  it("returns a typed no-data grade, not a letter, when no check has data", () => {
    const run = { aggregate: endpoint(AGGREGATE_NAME, {}), endpoints: [endpoint("Silent", {})] };
    const grade = gradeRun(policy(ghzPolicy), run);
    expect(grade).toMatchObject({
      status: "no-data",
      letter: null,
      score: null,
      compliance: null,
      reason: "none of the 3 SLA checks had data",
      evaluated: 0,
      endpointsEvaluated: 0,
    });
    expect(grade.checks).toHaveLength(3);
  });

  it("gives no grade at all without a policy or without targets", () => {
    expect(gradeRunIfPolicy(null, ghzRun)).toBeNull();
    expect(gradeRunIfPolicy(undefined, ghzRun)).toBeNull();
    expect(gradeRunIfPolicy(policy({ targets: [] }), ghzRun)).toBeNull();
    expect(gradeRunIfPolicy(policy(ghzPolicy), ghzRun)?.letter).toBe("A");
  });
});

describe("letterFor", () => {
  it.each([
    [1, "A"],
    [0.9999, "B"],
    [0.9, "B"],
    [0.8999999999999999, "B"], // floating-point noise on the boundary
    [0.8999, "C"],
    [0.75, "C"],
    [0.5, "D"],
    [0.4999, "F"],
    [0, "F"],
  ] as const)("%s → %s", (compliance, letter) => {
    expect(letterFor(compliance)).toBe(letter);
  });
});
