// benchtrack.json, the repository's budget (docs/ci.md, "Budgets as code"): read from the repository's
// root (or BENCHTRACK_BUDGET), checked here so that a malformed file fails the step before anything is
// sent (exit 2, naming the JSON path at fault), and sent with the upload in the Benchtrack-Budget
// headers with its path and the commit it was read at. Plain Node, no dependencies: the check mirrors
// the server's Zod schema (server/schemas/budget.ts), and budget-file.test.ts holds the two to the same
// answers; the server checks again, with the last word.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { COMMIT, gitLine, UsageError, value } from "./ci-settings.mjs";

export const DEFAULT_BUDGET_PATH = "benchtrack.json";
/** The largest file sent (the server's MAX_BUDGET_BYTES): it travels in a header. */
export const MAX_BUDGET_BYTES = 8 * 1024;

const SLUG = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const LATENCY_UNITS = ["s", "ms", "us", "ns", "s/op", "ms/op", "us/op", "ns/op"];
const THROUGHPUT_UNITS = ["req/s", "ops/s"];
const OPERATORS = ["<=", "<", ">=", ">"];
const LAYER_KEYS = ["sla", "gate"];
const GATE_KEYS = ["metric", "minEffectPct", "alpha", "inconclusive"];
const TARGET_KEYS = ["metric", "op", "threshold", "unit", "scope", "weight"];

/** A problem at a JSON path. */
class Fault extends Error {
  constructor(where, message) {
    super(message);
    this.where = where;
  }
}

const kindOf = (item) => (item === null ? "null" : Array.isArray(item) ? "array" : typeof item);
const isObject = (item) => kindOf(item) === "object";
const join = (where, key) => (typeof key === "number" ? `${where}[${key}]` : where === "" ? key : `${where}.${key}`);

function expectObject(item, where, keys) {
  if (!isObject(item)) throw new Fault(where, `expected object, got ${kindOf(item)}`);
  const unknown = Object.keys(item).find((key) => !keys.includes(key));
  if (unknown !== undefined)
    throw new Fault(where, `unknown key ${JSON.stringify(unknown)} (expected ${keys.join(", ")})`);
}

function expectNumber(item, where) {
  if (typeof item !== "number" || !Number.isFinite(item))
    throw new Fault(where, `expected number, got ${item === undefined ? "nothing" : kindOf(item)}`);
}

function expectOneOf(item, where, choices) {
  if (!choices.includes(item))
    throw new Fault(where, `expected one of ${choices.map((choice) => JSON.stringify(choice)).join(", ")}`);
}

function checkTarget(target, where) {
  expectObject(target, where, TARGET_KEYS);
  const { metric, threshold, unit, scope, weight } = target;
  const percentile = typeof metric === "string" && /^p/.test(metric) ? Number(metric.slice(1)) : null;
  const kind =
    typeof metric !== "string"
      ? null
      : ["mean", "min", "max"].includes(metric)
        ? "latency"
        : metric === "errorRate" || metric === "throughput"
          ? metric
          : /^metrics\..+/.test(metric)
            ? "custom"
            : percentile !== null && metric.length > 1 && Number.isFinite(percentile)
              ? "percentile"
              : null;
  if (kind === null)
    throw new Fault(
      join(where, "metric"),
      'expected "p<number>" ("p95"), "mean", "min", "max", "errorRate", "throughput" or "metrics.<key>"',
    );
  expectOneOf(target.op, join(where, "op"), OPERATORS);
  expectNumber(threshold, join(where, "threshold"));
  if (unit !== undefined && (typeof unit !== "string" || unit === ""))
    throw new Fault(join(where, "unit"), "expected a unit (a non-empty string)");
  if (scope !== undefined && scope !== "endpoints" && scope !== "aggregate") {
    expectObject(scope, join(where, "scope"), ["match"]);
    if (typeof scope.match !== "string" || scope.match === "")
      throw new Fault(join(where, "scope.match"), "expected an endpoint-name glob (a non-empty string)");
  }
  if (weight !== undefined) {
    expectNumber(weight, join(where, "weight"));
    if (weight <= 0) throw new Fault(join(where, "weight"), "expected a positive number");
  }
  if (kind === "percentile" && !(percentile > 0 && percentile <= 100))
    throw new Fault(join(where, "metric"), `percentile must be in (0, 100], got ${JSON.stringify(metric)}`);
  if ((kind === "percentile" || kind === "latency") && unit !== undefined && !LATENCY_UNITS.includes(unit))
    throw new Fault(join(where, "unit"), `latency unit must be one of ${LATENCY_UNITS.join(", ")}`);
  if (kind === "errorRate" && unit !== undefined)
    throw new Fault(join(where, "unit"), "errorRate takes no unit: give the threshold as a fraction (1% = 0.01)");
  if (kind === "errorRate" && (threshold < 0 || threshold > 1))
    throw new Fault(join(where, "threshold"), "errorRate threshold must be a fraction between 0 and 1 (1% = 0.01)");
  if (kind === "throughput" && unit !== undefined && !THROUGHPUT_UNITS.includes(unit))
    throw new Fault(join(where, "unit"), `throughput is measured in ${THROUGHPUT_UNITS.join(" or ")}`);
}

function checkGate(gate, where) {
  expectObject(gate, where, GATE_KEYS);
  const { metric, minEffectPct, alpha, inconclusive } = gate;
  if (
    metric !== undefined &&
    !(
      typeof metric === "string" &&
      metric.length <= 200 &&
      (metric === "auto" ||
        /^p\d+(\.\d+)?$/.test(metric) ||
        ["mean", "min", "max"].includes(metric) ||
        /^metrics\.\S+$/.test(metric))
    )
  )
    throw new Fault(
      join(where, "metric"),
      'use "auto", a percentile ("p95", "p99.9"), "mean", or a custom metric ("metrics.<key>")',
    );
  if (minEffectPct !== undefined) {
    expectNumber(minEffectPct, join(where, "minEffectPct"));
    if (minEffectPct < 0 || minEffectPct > 1000)
      throw new Fault(join(where, "minEffectPct"), "expected a percentage from 0 to 1000");
  }
  if (alpha !== undefined) {
    expectNumber(alpha, join(where, "alpha"));
    if (!(alpha > 0 && alpha < 1)) throw new Fault(join(where, "alpha"), "expected a number between 0 and 1 (0.01)");
  }
  if (inconclusive !== undefined) expectOneOf(inconclusive, join(where, "inconclusive"), ["pass", "fail"]);
}

function checkLayer(layer, where, keys) {
  expectObject(layer, where, keys);
  if (layer.sla !== undefined) {
    expectObject(layer.sla, join(where, "sla"), ["targets"]);
    if (!Array.isArray(layer.sla.targets))
      throw new Fault(
        join(where, "sla.targets"),
        `expected array, got ${layer.sla.targets === undefined ? "nothing" : kindOf(layer.sla.targets)}`,
      );
    layer.sla.targets.forEach((target, index) => checkTarget(target, join(join(where, "sla.targets"), index)));
  }
  if (layer.gate !== undefined) checkGate(layer.gate, join(where, "gate"));
  if (layer.labels !== undefined) {
    expectObject(layer.labels, join(where, "labels"), Object.keys(layer.labels ?? {}));
    for (const [label, entry] of Object.entries(layer.labels)) {
      if (label === "" || label.length > 1024)
        throw new Fault(join(where, "labels"), "a label is 1 to 1024 characters");
      checkLayer(entry, join(join(where, "labels"), label), LAYER_KEYS);
    }
  }
}

/** The first problem of a parsed benchtrack.json, as `{ path, message }` (path "" is the file itself), or null. */
export function findBudgetProblem(document) {
  try {
    checkLayer(document, "", ["$schema", ...LAYER_KEYS, "labels", "projects"]);
    if (document.$schema !== undefined && (typeof document.$schema !== "string" || document.$schema.length > 2048))
      throw new Fault("$schema", "expected the schema's URL (a string)");
    if (document.projects !== undefined) {
      expectObject(document.projects, "projects", Object.keys(document.projects ?? {}));
      for (const [slug, entry] of Object.entries(document.projects)) {
        if (!SLUG.test(slug))
          throw new Fault(join("projects", slug), "not a project slug: lower-case letters, digits, '.', '_' and '-'");
        checkLayer(entry, join("projects", slug), [...LAYER_KEYS, "labels"]);
      }
    }
    return null;
  } catch (error) {
    if (!(error instanceof Fault)) throw error;
    return { path: error.where, message: error.message };
  }
}

/** The repository's root (git), else the working directory. */
function repositoryRoot(cwd) {
  return gitLine(["rev-parse", "--show-toplevel"], cwd) ?? cwd;
}

/**
 * The budget to send, checked: `{ path, commit, bytes }`, or null when there is none (BENCHTRACK_BUDGET
 * unset and no benchtrack.json at the repository's root, or BENCHTRACK_BUDGET=none). A file named by
 * BENCHTRACK_BUDGET that does not exist, one too large, not JSON or not a budget is a UsageError (exit 2)
 * naming the file and the JSON path at fault. `note` says what was read.
 */
export function readBudget(env, { note = () => {}, cwd = process.cwd() } = {}) {
  const given = value(env, "BENCHTRACK_BUDGET");
  if (["none", "false"].includes(given.toLowerCase())) return null;
  const root = repositoryRoot(cwd);
  const file = path.resolve(root, given || DEFAULT_BUDGET_PATH);
  const shown = path.relative(root, file).split(path.sep).join("/") || path.basename(file);
  let stats;
  try {
    stats = statSync(file);
  } catch {
    if (!given) return null;
    throw new UsageError(
      `BENCHTRACK_BUDGET: ${JSON.stringify(given)} does not exist (read from the repository's root, ${root})`,
    );
  }
  if (!stats.isFile()) throw new UsageError(`BENCHTRACK_BUDGET: ${JSON.stringify(shown)} is not a file`);
  if (stats.size > MAX_BUDGET_BYTES)
    throw new UsageError(
      `${shown}: ${stats.size} bytes; a budget is sent in a header, at most ${MAX_BUDGET_BYTES} bytes`,
    );
  const bytes = readFileSync(file);
  let document;
  try {
    document = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UsageError(`${shown}: not valid JSON: ${error.message}`);
  }
  const problem = findBudgetProblem(document);
  if (problem) throw new UsageError(`${shown}: ${problem.path || "(the file)"}: ${problem.message}`);
  const head = gitLine(["rev-parse", "HEAD"], root);
  const commit = head && COMMIT.test(head) ? head.toLowerCase() : null;
  const changed = commit ? gitLine(["status", "--porcelain", "--", file], root) : null;
  note(
    `Budget: ${shown}${commit ? ` at ${commit.slice(0, 12)}` : ""}${changed ? " (with uncommitted changes: sent as it is)" : ""}.`,
  );
  return { path: shown, commit, bytes };
}

/** The upload's headers that carry a budget (none without one). */
export function budgetHeaders(budget) {
  if (budget === null || budget === undefined) return {};
  return {
    "Benchtrack-Budget": budget.bytes.toString("base64"),
    "Benchtrack-Budget-Path": encodeURIComponent(budget.path).replace(/%2F/g, "/"),
    ...(budget.commit ? { "Benchtrack-Budget-Commit": budget.commit } : {}),
  };
}
