import { describe, expect, it } from "vitest";
import { InputError } from "../domain/input-error";
import { budgetFileSchema, parseBudgetHeaders, MAX_BUDGET_BYTES } from "./budget";
import { buildBudgetJsonSchema } from "../http/openapi";

const EXAMPLE = {
  $schema: "https://bench.example.com/api/v1/schema/benchtrack.json",
  sla: { targets: [{ metric: "p95", op: "<=", threshold: 300, unit: "ms" }] },
  gate: { metric: "p95", minEffectPct: 5, alpha: 0.01, inconclusive: "pass" },
  labels: { nightly: { gate: { minEffectPct: 10 } } },
  projects: {
    listings: {
      sla: { targets: [{ metric: "errorRate", op: "<=", threshold: 0.01, scope: "aggregate" }] },
      labels: { smoke: { gate: { inconclusive: "fail" } } },
    },
  },
};

/** The first issue of a refused document, as "path: message". */
function firstProblem(document: unknown): string {
  const result = budgetFileSchema.safeParse(document);
  if (result.success) return "accepted";
  const issue = result.error.issues[0]!;
  return `${issue.path
    .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
    .join("")
    .replace(/^\./, "")}: ${issue.message}`;
}

const headersOf = (document: unknown, extra: Record<string, string> = {}) =>
  new Headers({
    "Benchtrack-Budget": Buffer.from(typeof document === "string" ? document : JSON.stringify(document)).toString(
      "base64",
    ),
    ...extra,
  });

describe("budgetFileSchema", () => {
  it("accepts a file with every layer, defaults applied to its targets", () => {
    const parsed = budgetFileSchema.parse(EXAMPLE);
    expect(parsed.sla?.targets[0]).toEqual({
      metric: "p95",
      op: "<=",
      threshold: 300,
      unit: "ms",
      scope: "endpoints",
      weight: 1,
    });
    expect(parsed.projects?.listings?.labels?.smoke?.gate?.inconclusive).toBe("fail");
  });

  it("accepts an empty file (it sets nothing: Settings judge)", () => {
    expect(budgetFileSchema.parse({})).toEqual({});
  });

  it.each([
    [
      { sla: { targets: [{ metric: "p95", op: "<=", threshold: "300" }] } },
      "sla.targets[0].threshold: Invalid input: expected number, received string",
    ],
    [
      { sla: { targets: [{ metric: "p95", op: "<=", treshold: 300 }] } },
      "sla.targets[0].threshold: Invalid input: expected number, received undefined",
    ],
    [
      { sla: { targets: [{ metric: "p95", op: "<=", threshold: 3, unit: "ms", typo: 1 }] } },
      'sla.targets[0]: Unrecognized key: "typo"',
    ],
    [{ gate: { minEffect: 5 } }, 'gate: Unrecognized key: "minEffect"'],
    [{ gate: { alpha: 1 } }, "gate.alpha: Too big: expected number to be <1"],
    [{ gate: { inconclusive: "warn" } }, 'gate.inconclusive: Invalid option: expected one of "pass"|"fail"'],
    [
      { gate: { metric: "latency" } },
      'gate.metric: use "auto", a percentile ("p95", "p99.9"), "mean", or a custom metric ("metrics.<key>")',
    ],
    [
      { sla: { targets: [{ metric: "errorRate", op: "<=", threshold: 5 }] } },
      "sla.targets[0].threshold: errorRate threshold must be a fraction between 0 and 1 (1% = 0.01)",
    ],
    [
      { projects: { "Not A Slug": {} } },
      "projects.Not A Slug: not a project slug: lower-case letters, digits, '.', '_' and '-', starting with a letter or digit",
    ],
    [
      { labels: { nightly: { gate: { alpha: "0.05" } } } },
      "labels.nightly.gate.alpha: Invalid input: expected number, received string",
    ],
    [[], ": Invalid input: expected object, received array"],
  ])("refuses %j at the path at fault", (document, problem) => {
    expect(firstProblem(document)).toBe(problem);
  });

  it("is published as JSON Schema with its descriptions", () => {
    const schema = buildBudgetJsonSchema("https://bench.example.com/api/v1/schema/benchtrack.json");
    expect(schema.$id).toBe("https://bench.example.com/api/v1/schema/benchtrack.json");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties as object)).toEqual(["$schema", "sla", "gate", "labels", "projects"]);
  });
});

describe("parseBudgetHeaders", () => {
  it("is null without the header", () => {
    expect(parseBudgetHeaders(new Headers())).toBeNull();
  });

  it("reads the file, its path and commit", () => {
    const budget = parseBudgetHeaders(
      headersOf(EXAMPLE, {
        "Benchtrack-Budget-Path": "perf%2Fbenchtrack.json",
        "Benchtrack-Budget-Commit": "3F2A9C1E07B4",
      }),
    );
    expect(budget?.source).toEqual({ path: "perf/benchtrack.json", commit: "3f2a9c1e07b4" });
    expect(budget?.file.gate?.minEffectPct).toBe(5);
  });

  /** The InputError a set of headers is refused with: code, message, first detail. */
  function refusal(headers: Headers) {
    try {
      parseBudgetHeaders(headers);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return { code: error.code, message: error.message, detail: error.details[0] };
    }
    throw new Error("accepted");
  }

  it("names the file and the JSON path of a bad value", () => {
    expect(refusal(headersOf({ sla: { targets: [{ metric: "p95", op: "<=", threshold: "fast" }] } }))).toEqual({
      code: "malformed",
      message:
        "benchtrack.json is not a valid budget: sla.targets[0].threshold: Invalid input: expected number, received string",
      detail: {
        path: "benchtrack.json: sla.targets[0].threshold",
        message: "Invalid input: expected number, received string",
      },
    });
  });

  it.each([
    [headersOf("{ not json"), "malformed", "benchtrack.json"],
    [new Headers({ "Benchtrack-Budget": "%%%" }), "malformed", "header.benchtrack-budget"],
    [
      new Headers({ "Benchtrack-Budget": Buffer.from([0xff, 0xfe, 0x7b]).toString("base64") }),
      "malformed",
      "benchtrack.json",
    ],
    [headersOf({}, { "Benchtrack-Budget-Commit": "main" }), "malformed", "header.benchtrack-budget-commit"],
    [headersOf({}, { "Benchtrack-Budget-Path": "%E0%A4%A" }), "malformed", "header.benchtrack-budget-path"],
    [headersOf({}, { "Benchtrack-Budget-Path": "a%0Ab" }), "malformed", "header.benchtrack-budget-path"],
    [new Headers({ "Benchtrack-Budget-Commit": "3f2a9c1" }), "malformed", "header.benchtrack-budget"],
    [headersOf({ $schema: "x".repeat(MAX_BUDGET_BYTES) }), "too_large", "header.benchtrack-budget"],
  ])("refuses hostile headers (%#) with a 4xx naming the header or file", (headers, code, path) => {
    const { code: got, detail } = refusal(headers);
    expect(got).toBe(code);
    expect(detail?.path).toBe(path);
  });
});
