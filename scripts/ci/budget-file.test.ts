import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { budgetFileSchema, budgetPathOf } from "@/server/schemas/budget";
import { budgetHeaders, findBudgetProblem, MAX_BUDGET_BYTES, readBudget } from "./budget-file.mjs";
import { MAX_BUDGET_BYTES as SERVER_MAX_BUDGET_BYTES, parseBudgetHeaders } from "@/server/schemas/budget";

// The CI scripts check benchtrack.json before uploading, without dependencies, by a check that mirrors the
// server's Zod schema (server/schemas/budget.ts). These cases hold the two to the same answers: both
// accept, or both refuse, and the script names a path the server names too.
const target = { metric: "p95", op: "<=", threshold: 300, unit: "ms" };
const CASES: unknown[] = [
  {},
  { $schema: "https://bench.example.com/api/v1/schema/benchtrack.json", sla: { targets: [target] } },
  { sla: { targets: [] }, gate: { metric: "auto", minEffectPct: 0, alpha: 0.5, inconclusive: "fail" } },
  {
    sla: {
      targets: [
        { ...target, scope: { match: "Get*" }, weight: 2 },
        { metric: "errorRate", op: "<", threshold: 0.01, scope: "aggregate" },
      ],
    },
  },
  {
    sla: {
      targets: [
        { metric: "throughput", op: ">=", threshold: 100, unit: "ops/s" },
        { metric: "metrics.cpu", op: "<=", threshold: 80, unit: "%" },
      ],
    },
  },
  {
    labels: { nightly: { gate: { minEffectPct: 10 } } },
    projects: { listings: { gate: { alpha: 0.05 }, labels: { smoke: { sla: { targets: [target] } } } } },
  },
  // Refused:
  [],
  null,
  { sla: { targets: [{ ...target, threshold: "300" }] } },
  { sla: { targets: [{ metric: "p95", op: "<=" }] } },
  { sla: { targets: [{ ...target, typo: 1 }] } },
  { sla: { targets: [{ ...target, metric: "p150" }] } },
  { sla: { targets: [{ ...target, metric: "latency" }] } },
  { sla: { targets: [{ ...target, op: "=<" }] } },
  { sla: { targets: [{ ...target, unit: "minutes" }] } },
  { sla: { targets: [{ metric: "errorRate", op: "<=", threshold: 5 }] } },
  { sla: { targets: [{ metric: "errorRate", op: "<=", threshold: 0.01, unit: "%" }] } },
  { sla: { targets: [{ metric: "throughput", op: ">=", threshold: 5, unit: "rps" }] } },
  { sla: { targets: [{ ...target, scope: "all" }] } },
  { sla: { targets: [{ ...target, scope: { match: "" } }] } },
  { sla: { targets: [{ ...target, weight: 0 }] } },
  { sla: { targets: target } },
  { sla: { target: [target] } },
  { sla: [target] },
  { gate: { minEffect: 5 } },
  { gate: { metric: "p95 " } },
  { gate: { minEffectPct: -1 } },
  { gate: { alpha: 1 } },
  { gate: { alpha: "0.01" } },
  { gate: { inconclusive: "warn" } },
  { labels: { nightly: { gate: { alpha: 0 } } } },
  { labels: { nightly: { labels: {} } } },
  { labels: [] },
  { projects: { "Not A Slug": {} } },
  { projects: { listings: { labels: { smoke: { sla: { targets: [{ ...target, threshold: null }] } } } } } },
  { projects: { listings: { projects: {} } } },
  { $schema: 1 },
  { targets: [target] },
];

describe("findBudgetProblem (the script's check) and budgetFileSchema (the server's)", () => {
  it.each(CASES.map((document) => [JSON.stringify(document), document]))("agree on %s", (_text, document) => {
    const server = budgetFileSchema.safeParse(document);
    const script = findBudgetProblem(document);
    if (server.success) {
      expect(script).toBeNull();
    } else {
      expect(script, "the script accepts what the server refuses").not.toBeNull();
      expect(server.error.issues.map((issue) => budgetPathOf(issue.path))).toContain(script!.path);
    }
  });

  it("refuse most of the cases (the table tests refusals, not only acceptances)", () => {
    expect(CASES.filter((document) => findBudgetProblem(document) !== null)).toHaveLength(CASES.length - 6);
  });

  it("says what was expected at the path", () => {
    expect(findBudgetProblem({ sla: { targets: [{ ...target, threshold: "300" }] } })).toEqual({
      path: "sla.targets[0].threshold",
      message: "expected number, got string",
    });
    expect(findBudgetProblem({ gate: { minEffect: 5 } })).toEqual({
      path: "gate",
      message: 'unknown key "minEffect" (expected metric, minEffectPct, alpha, inconclusive)',
    });
  });
});

/** A git repository with `files` committed at its root; its path and HEAD. */
function repository(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "benchtrack-budget-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.test", ...args], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
  git("init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  git("add", ".");
  git("commit", "-q", "--allow-empty", "-m", "budget");
  return { dir, head: git("rev-parse", "HEAD") };
}

describe("readBudget", () => {
  const good = JSON.stringify({ sla: { targets: [target] } });

  it("reads benchtrack.json at the repository's root, from a subfolder too, with the commit checked out", () => {
    const { dir, head } = repository({ "benchtrack.json": good, "load/test.js": "" });
    const notes: string[] = [];
    const budget = readBudget({}, { cwd: path.join(dir, "load"), note: (text: string) => notes.push(text) });
    expect(budget).toEqual({ path: "benchtrack.json", commit: head, bytes: Buffer.from(good) });
    expect(notes).toEqual([`Budget: benchtrack.json at ${head.slice(0, 12)}.`]);
  });

  it("is null without a file, or with BENCHTRACK_BUDGET=none", () => {
    expect(readBudget({}, { cwd: repository({}).dir })).toBeNull();
    expect(readBudget({ BENCHTRACK_BUDGET: "none" }, { cwd: repository({ "benchtrack.json": "{" }).dir })).toBeNull();
  });

  it("takes another path from BENCHTRACK_BUDGET, from the root; a missing one is an error", () => {
    const { dir } = repository({ "perf/budget.json": good });
    expect(readBudget({ BENCHTRACK_BUDGET: "perf/budget.json" }, { cwd: dir })?.path).toBe("perf/budget.json");
    expect(() => readBudget({ BENCHTRACK_BUDGET: "perf/none.json" }, { cwd: dir })).toThrow(
      /^BENCHTRACK_BUDGET: "perf\/none.json" does not exist/,
    );
  });

  it.each([
    ["{ sla: 1 }", /^benchtrack\.json: not valid JSON: /],
    [
      JSON.stringify({ sla: { targets: [{ ...target, threshold: "300" }] } }),
      /^benchtrack\.json: sla\.targets\[0\]\.threshold: expected number, got string$/,
    ],
    [
      JSON.stringify({ $schema: "x".repeat(MAX_BUDGET_BYTES) }),
      /^benchtrack\.json: \d+ bytes; a budget is sent in a header, at most 8192 bytes$/,
    ],
  ])("refuses a malformed file: %s", (text, message) => {
    expect(() => readBudget({}, { cwd: repository({ "benchtrack.json": text }).dir })).toThrow(message);
  });

  it("sends what the server reads back: the same file, path and commit", () => {
    const { dir, head } = repository({ "perf/bench track.json": good });
    const sent = budgetHeaders(readBudget({ BENCHTRACK_BUDGET: "perf/bench track.json" }, { cwd: dir }));
    const read = parseBudgetHeaders(new Headers(sent));
    expect(read?.source).toEqual({ path: "perf/bench track.json", commit: head });
    expect(read?.file).toEqual(budgetFileSchema.parse(JSON.parse(good)));
    expect(MAX_BUDGET_BYTES).toBe(SERVER_MAX_BUDGET_BYTES);
  });
});

describe("benchtrack-pr with a malformed benchtrack.json", () => {
  it("exits 2 before uploading, naming the file and the JSON path", () => {
    const { dir } = repository({
      "benchtrack.json": JSON.stringify({ projects: { listings: { labels: { nightly: { gate: { alpha: 2 } } } } } }),
      "k6.json": "{}",
    });
    // A server nobody listens on: a request would be a connection error (exit 3), not exit 2.
    const child = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "benchtrack-pr.mjs"), "gitlab"], {
      cwd: dir,
      encoding: "utf8",
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        BENCHTRACK_URL: "http://127.0.0.1:9",
        BENCHTRACK_PROJECT: "listings",
        BENCHTRACK_TOKEN: "bt_test_token_0123456789",
        BENCHTRACK_FILES: "k6.json",
        BENCHTRACK_RETRIES: "0",
        GITLAB_CI: "true",
        CI_COMMIT_SHA: "3f2a9c1e07b4d5e6f708192a3b4c5d6e7f809102",
        CI_COMMIT_REF_NAME: "main",
      },
    });
    expect(child.stderr).toBe(
      "error: benchtrack.json: projects.listings.labels.nightly.gate.alpha: expected a number between 0 and 1 (0.01)\n",
    );
    expect(child.status).toBe(2);
  });
});
