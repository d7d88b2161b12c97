/**
 * The SLA grade of a run (docs/statistics.md, "SLA grade"). Each (target × result in the target's
 * scope) is one check that passes, fails, or has no data. No-data checks are shown but excluded:
 * compliance = Σ weight(passed) / Σ weight(evaluated). Letter: A = 100%, B ≥ 90%, C ≥ 75%, D ≥ 50%,
 * F < 50%; score = compliance × 100. A run with no policy gets no grade (`gradeRunIfPolicy` → null),
 * and one where no check had data gets a typed "no data" grade, never a letter.
 */
import { AGGREGATE_NAME, type CustomMetric, type EndpointResult } from "../run";
import { matchesGlob } from "./glob";
import { headroomOf, headroomRatio, type Headroom } from "./headroom";
import { measureTarget } from "./measure";
import { canonicalThreshold, describeTarget, meetsTarget, type SlaPolicy, type SlaTarget } from "./policy";

/** Bump when the grading rules change, so stored grades are recomputed (house style habit 6). */
export const SLA_GRADE_VERSION = 1;

export type SlaLetter = "A" | "B" | "C" | "D" | "F";

/** Lowest compliance for each letter, best first; A needs every evaluated check to pass. */
const LETTER_FLOORS: readonly { letter: SlaLetter; minCompliance: number }[] = [
  { letter: "A", minCompliance: 1 },
  { letter: "B", minCompliance: 0.9 },
  { letter: "C", minCompliance: 0.75 },
  { letter: "D", minCompliance: 0.5 },
  { letter: "F", minCompliance: 0 },
];

/** Weighted sums can land a hair under a boundary (0.8999999999); don't let that cost a letter. */
const COMPLIANCE_EPSILON = 1e-9;

/** What gets graded. A `ParsedRun` fits as is; `metrics` (run-level) is consulted for the aggregate. */
export interface GradableResults {
  aggregate: EndpointResult;
  endpoints: readonly EndpointResult[];
  metrics?: Record<string, CustomMetric>;
}

export interface SlaCheck {
  /** Position of the target in the policy, so a UI can link back to it. */
  targetIndex: number;
  target: SlaTarget;
  /** Endpoint name, or AGGREGATE_NAME for the aggregate. */
  endpoint: string;
  /** Measured value in the canonical unit (`unit`); null when there was no data. */
  value: number | null;
  /** Threshold converted to the canonical unit (latency thresholds in s/us become ms). */
  threshold: number;
  /** "ms", "req/s", a custom metric's unit, or null (error rate is a fraction 0..1). */
  unit: string | null;
  /** null = no data: shown, but excluded from compliance. */
  passed: boolean | null;
  /** null exactly when `passed` is null. */
  headroom: Headroom | null;
  /** Why there is no value ("p99.9 not reported"), when `passed` is null. */
  noDataReason: string | null;
}

export interface EndpointCompliance {
  endpoint: string;
  passed: number;
  evaluated: number;
  /** All evaluated checks passed; null when none of its checks had data. */
  isCompliant: boolean | null;
}

interface GradeDetails {
  version: number;
  /** Limiting first: failed checks by worst headroom, then passing by least headroom, then no data. */
  checks: SlaCheck[];
  /** Counts of checks (unweighted), for "14/15 checks passed". */
  passed: number;
  evaluated: number;
  noData: number;
  /** Named endpoints (not the aggregate) with data whose every evaluated check passed: "5/5 endpoints". */
  endpointsCompliant: number;
  endpointsEvaluated: number;
  /** Per result that had checks, in run order, aggregate first; feeds the report's SLA ✓/✗ column. */
  byEndpoint: EndpointCompliance[];
  /** Things the reader should know, e.g. a target whose scope matched no endpoint. */
  notes: string[];
}

export interface LetterGrade extends GradeDetails {
  status: "graded";
  letter: SlaLetter;
  /** compliance × 100, rounded to one decimal. */
  score: number;
  /** Weighted passed / weighted evaluated, 0..1. */
  compliance: number;
}

export interface NoDataGrade extends GradeDetails {
  status: "no-data";
  letter: null;
  score: null;
  compliance: null;
  reason: string;
}

export type SlaGrade = LetterGrade | NoDataGrade;

/** Grades only when there is something to grade against: no policy or no targets → null ("no SLA"). */
export function gradeRunIfPolicy(policy: SlaPolicy | null | undefined, results: GradableResults): SlaGrade | null {
  if (!policy || policy.targets.length === 0) return null;
  return gradeRun(policy, results);
}

export function gradeRun(policy: SlaPolicy, results: GradableResults): SlaGrade {
  const notes: string[] = [];
  const checks: SlaCheck[] = [];
  policy.targets.forEach((target, targetIndex) => {
    if (target.scope === "aggregate") {
      checks.push(checkTarget(target, targetIndex, results.aggregate, results.metrics));
      return;
    }
    const inScope = endpointsInScope(target, results.endpoints);
    if (inScope.length === 0) notes.push(`${describeTarget(target)} matched no endpoint`);
    for (const endpoint of inScope) checks.push(checkTarget(target, targetIndex, endpoint));
  });

  const evaluatedChecks = checks.filter((check) => check.passed !== null);
  const passedChecks = evaluatedChecks.filter((check) => check.passed === true);
  const byEndpoint = summarizeByEndpoint(checks, results);
  const namedEndpoints = byEndpoint.filter((entry) => entry.endpoint !== AGGREGATE_NAME);
  const details: GradeDetails = {
    version: SLA_GRADE_VERSION,
    checks: sortLimitingFirst(checks),
    passed: passedChecks.length,
    evaluated: evaluatedChecks.length,
    noData: checks.length - evaluatedChecks.length,
    endpointsCompliant: namedEndpoints.filter((entry) => entry.isCompliant === true).length,
    endpointsEvaluated: namedEndpoints.filter((entry) => entry.isCompliant !== null).length,
    byEndpoint,
    notes,
  };

  if (evaluatedChecks.length === 0) {
    const reason =
      checks.length === 0
        ? "no endpoint is in scope of any SLA target"
        : `none of the ${checks.length} SLA checks had data`;
    return { ...details, status: "no-data", letter: null, score: null, compliance: null, reason };
  }
  // Any failure keeps compliance below 1 even if a tiny weight would round away in the division.
  const hasFailure = passedChecks.length < evaluatedChecks.length;
  const ratio = sumWeights(passedChecks) / sumWeights(evaluatedChecks);
  const compliance = hasFailure ? Math.min(ratio, 1 - Number.EPSILON) : 1;
  return {
    ...details,
    status: "graded",
    letter: letterFor(compliance),
    // Rounded to one decimal; a run with a failure never shows 100.
    score: Math.min(Math.round(compliance * 1000) / 10, hasFailure ? 99.9 : 100),
    compliance,
  };
}

export function letterFor(compliance: number): SlaLetter {
  // A is exact (every evaluated check passed); the epsilon only forgives noise at the lower floors.
  if (compliance >= 1) return "A";
  const floor = LETTER_FLOORS.find(
    (entry) => entry.minCompliance < 1 && compliance + COMPLIANCE_EPSILON >= entry.minCompliance,
  );
  return floor?.letter ?? "F";
}

function endpointsInScope(target: SlaTarget, endpoints: readonly EndpointResult[]): readonly EndpointResult[] {
  const { scope } = target;
  if (scope === "aggregate") return [];
  if (scope === "endpoints") return endpoints;
  return endpoints.filter((endpoint) => matchesGlob(scope.match, endpoint.name));
}

function checkTarget(
  target: SlaTarget,
  targetIndex: number,
  result: EndpointResult,
  /** Given only for the aggregate, whose name is always reported as AGGREGATE_NAME. */
  aggregateRunMetrics?: Record<string, CustomMetric>,
): SlaCheck {
  const { threshold, unit } = canonicalThreshold(target);
  const isAggregate = target.scope === "aggregate";
  const measurement = measureTarget(target, result, aggregateRunMetrics);
  const endpoint = isAggregate ? AGGREGATE_NAME : result.name;
  const base = { targetIndex, target, endpoint, threshold, unit };
  if (measurement.value === null) {
    return { ...base, value: null, passed: null, headroom: null, noDataReason: measurement.noDataReason };
  }
  const passed = meetsTarget(measurement.value, target.op, threshold);
  return {
    ...base,
    value: measurement.value,
    passed,
    headroom: headroomOf(measurement.value, target.op, threshold, passed),
    noDataReason: null,
  };
}

function sumWeights(checks: readonly SlaCheck[]): number {
  return checks.reduce((sum, check) => sum + check.target.weight, 0);
}

/** Failed (0) before passed (1) before no data (2); within a group, the smallest headroom first. */
function sortLimitingFirst(checks: readonly SlaCheck[]): SlaCheck[] {
  const group = (check: SlaCheck) => (check.passed === false ? 0 : check.passed === true ? 1 : 2);
  const ratio = (check: SlaCheck) => {
    if (check.value === null) return 0;
    const raw = headroomRatio(check.value, check.target.op, check.threshold);
    // Negative values have no meaningful ratio; rank them as if on the target line.
    return Number.isNaN(raw) ? 1 : raw;
  };
  // Array.prototype.sort is stable, so ties keep policy order, then run order.
  return [...checks].sort((a, b) => group(a) - group(b) || compareRatios(ratio(a), ratio(b)));
}

function compareRatios(a: number, b: number): number {
  if (a === b) return 0; // also Infinity vs Infinity, where a − b would be NaN
  return a - b;
}

function summarizeByEndpoint(checks: readonly SlaCheck[], results: GradableResults): EndpointCompliance[] {
  const runOrder = [AGGREGATE_NAME, ...results.endpoints.map((endpoint) => endpoint.name)];
  const byName = new Map<string, EndpointCompliance>();
  for (const name of runOrder) {
    const own = checks.filter((check) => check.endpoint === name);
    if (own.length === 0 || byName.has(name)) continue;
    const evaluated = own.filter((check) => check.passed !== null).length;
    const passed = own.filter((check) => check.passed === true).length;
    byName.set(name, {
      endpoint: name,
      passed,
      evaluated,
      isCompliant: evaluated === 0 ? null : passed === evaluated,
    });
  }
  return [...byName.values()];
}
