/**
 * Limits every parsed run must respect before it is stored, whatever parser produced it. They keep one
 * upload from flooding the database or the pages (10,000 endpoints, a 1 MB name) and stop a NaN or a
 * negative latency from poisoning trends. Size problems are "too_large" (413), bad numbers "malformed".
 */
import { InputError, type InputErrorDetail } from "../input-error";
import { endpointKey, isBenchmark } from "../run";
import type { EndpointResult, ParsedRun } from "../run";

export const MAX_ENDPOINTS = 1_000;
/**
 * Benchmarks one run may hold: a microbenchmark suite is many small results (a large Go module prints
 * a few thousand), so its cap is ten times a load test's. Parsers stop at it as they read
 * (`benchmarkLimit`), before they build what follows.
 */
export const MAX_BENCHMARKS = 10_000;
export const MAX_NAME_LENGTH = 512;
export const MAX_STRING_LENGTH = 1_024;
export const MAX_ATTRIBUTES = 100;
export const MAX_DISTINCT_ERRORS = 1_000;
/** Checks, thresholds and parser notes a run may carry: far beyond real files, short of a page nobody can open. */
export const MAX_CHECKS = 1_000;
export const MAX_THRESHOLDS = 1_000;
export const MAX_NOTES = 200;
/** Timeline points per result, after parsers thin longer ones (timeline.ts): a day of Locust seconds thinned to one point in 25. */
export const MAX_TIMELINE_POINTS = 3_600;
/** Listing every offence of a 10,000-endpoint file helps no one. */
const MAX_DETAILS = 20;

/**
 * Refuses a benchmark past MAX_BENCHMARKS where a parser meets it (`where`: the line or path that holds
 * benchmark number `count`), so a file of a million benchmark lines is refused at line 10,001, not
 * after all of them were read and built.
 */
export function benchmarkLimit(count: number, where: string): void {
  if (count <= MAX_BENCHMARKS) return;
  throw new InputError("too_large", `More than ${MAX_BENCHMARKS.toLocaleString("en-US")} benchmarks (at ${where})`, [
    { path: where, message: `benchmark #${count}; the limit is ${MAX_BENCHMARKS} benchmarks a run` },
  ]);
}

/** Returns the run unchanged when it is within limits; throws `InputError` with paths otherwise. */
export function validateParsedRun(run: ParsedRun): ParsedRun {
  const benchmarks = run.endpoints.length > 0 && run.endpoints.every(isBenchmark);
  const limit = benchmarks ? MAX_BENCHMARKS : MAX_ENDPOINTS;
  if (run.endpoints.length > limit) {
    const what = benchmarks ? "benchmarks" : "endpoints";
    throw new InputError("too_large", `Too many ${what}: ${run.endpoints.length} (at most ${limit})`, [
      { path: "endpoints", message: `${run.endpoints.length} ${what}; the limit is ${limit}` },
    ]);
  }
  const repeated = [...repeatedEndpoints(run)].slice(0, MAX_DETAILS);
  if (repeated.length > 0) {
    throw new InputError("wrong_format", `The upload holds one endpoint twice: ${repeated[0]?.message}`, repeated);
  }
  const oversized = [...sizeProblems(run)].slice(0, MAX_DETAILS);
  if (oversized.length > 0) {
    throw new InputError("too_large", `Value too long: ${oversized[0]?.path} (${oversized[0]?.message})`, oversized);
  }
  const badNumbers = [...numberProblems(run)].slice(0, MAX_DETAILS);
  if (badNumbers.length > 0) {
    throw new InputError("malformed", `Invalid number at ${badNumbers[0]?.path}: ${badNumbers[0]?.message}`, badNumbers);
  }
  const badText = [...textProblems(run, "")].slice(0, MAX_DETAILS);
  if (badText.length > 0) {
    throw new InputError("malformed", `Invalid text at ${badText[0]?.path}: ${badText[0]?.message}`, badText);
  }
  return run;
}

/**
 * A run holds one result per endpoint (its name and protocol, domain/run.ts:endpointKey): the same
 * report sent twice in one upload (1,000 copies of one ghz file) is not 1,000 measurements of it.
 */
function* repeatedEndpoints(run: ParsedRun): Generator<InputErrorDetail> {
  const first = new Map<string, number>();
  for (const [index, endpoint] of run.endpoints.entries()) {
    const key = endpointKey(endpoint);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else yield { path: `endpoints[${index}]`, message: `"${endpoint.name}" is also endpoints[${earlier}]; send each endpoint's result once` };
  }
}

/** The latest instant a JavaScript date holds (year 275760). */
const MAX_EPOCH_MS = 8.64e15;

/** The largest whole number the database's integer columns hold (round, pull request, CPUs, request counts). */
export const MAX_INT32 = 2_147_483_647;

// A lone UTF-16 surrogate: half of a pair, which no UTF-8 text (nor PostgreSQL) can hold.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** The same, for replacing every one: made once (a run's keys are read by the thousand). */
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/**
 * Why a text cannot be stored, or null: PostgreSQL refuses the NUL character in text and JSON, and a
 * lone surrogate is not Unicode at all. Such text is refused with its path, never silently altered.
 */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  if (LONE_SURROGATE.test(text)) return "contains a lone UTF-16 surrogate (not valid Unicode), which cannot be stored";
  return null;
}

/** A key as a path shows it: short, and printable whatever it holds. */
function pathKey(key: string): string {
  return key.slice(0, 40).replaceAll("\u0000", "\\u0000").replace(LONE_SURROGATES, "\uFFFD");
}

/** Every string of a value (a parsed run, a request's input), keys included, that cannot be stored. */
export function* textProblems(value: unknown, path: string): Generator<InputErrorDetail> {
  // Almost every value has none: found without building a path for each of its strings (a run of 10,000
  // benchmarks has some 100,000), and then walked again, naming them.
  if (hasTextProblem(value)) yield* textProblemsAt(value, path);
}

function hasTextProblem(value: unknown): boolean {
  if (typeof value === "string") return textProblem(value) !== null;
  if (Array.isArray(value)) {
    // Most arrays of a run are numbers (a histogram's, a timeline's): those are passed over, not called on.
    for (const item of value) if ((typeof item === "string" || (typeof item === "object" && item !== null)) && hasTextProblem(item)) return true;
    return false;
  }
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      if (textProblem(key) !== null || hasTextProblem((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

function* textProblemsAt(value: unknown, path: string): Generator<InputErrorDetail> {
  if (typeof value === "string") {
    const problem = textProblem(value);
    if (problem) yield { path: path || "(value)", message: problem };
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* textProblemsAt(item, `${path}[${index}]`);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const child = path === "" ? pathKey(key) : `${path}.${pathKey(key)}`;
      const problem = textProblem(key);
      if (problem) yield { path: child, message: `its key ${problem}` };
      yield* textProblemsAt(item, child);
    }
  }
}

function* sizeProblems(run: ParsedRun): Generator<InputErrorDetail> {
  for (const [path, list, limit] of [
    ["checks", run.checks, MAX_CHECKS],
    ["thresholds", run.thresholds, MAX_THRESHOLDS],
    ["notes", run.notes, MAX_NOTES],
  ] as const) {
    if (list.length > limit) yield { path, message: `${list.length} ${path}; the limit is ${limit}` };
  }
  yield* stringTooLong("tool", run.tool, MAX_STRING_LENGTH);
  yield* stringTooLong("toolVersion", run.toolVersion, MAX_STRING_LENGTH);
  yield* stringTooLong("label", run.label, MAX_STRING_LENGTH);
  yield* stringTooLong("startedAt", run.startedAt, MAX_STRING_LENGTH);
  const { git, ci, host, appVersion, config, attributes } = run.environment;
  yield* stringTooLong("environment.git.commit", git.commit, MAX_STRING_LENGTH);
  yield* stringTooLong("environment.git.branch", git.branch, MAX_STRING_LENGTH);
  yield* stringTooLong("environment.git.repoUrl", git.repoUrl, MAX_STRING_LENGTH);
  yield* stringTooLong("environment.ci.buildUrl", ci.buildUrl, MAX_STRING_LENGTH);
  yield* stringTooLong("environment.host.name", host.name, MAX_STRING_LENGTH);
  yield* stringTooLong("environment.appVersion", appVersion, MAX_STRING_LENGTH);
  yield* recordTooLarge("environment.attributes", attributes, MAX_ATTRIBUTES);
  yield* recordTooLarge("environment.config", config, MAX_ATTRIBUTES);
  for (const [key, value] of Object.entries(attributes)) {
    yield* stringTooLong(`environment.attributes key "${key.slice(0, 40)}"`, key, MAX_NAME_LENGTH);
    yield* stringTooLong(`environment.attributes.${key.slice(0, 40)}`, value, MAX_STRING_LENGTH);
  }
  for (const [key, value] of Object.entries(config)) {
    yield* stringTooLong(`environment.config key "${key.slice(0, 40)}"`, key, MAX_NAME_LENGTH);
    if (typeof value === "string") yield* stringTooLong(`environment.config.${key.slice(0, 40)}`, value, MAX_STRING_LENGTH);
  }
  yield* recordTooLarge("metrics", run.metrics, MAX_ATTRIBUTES);
  for (const key of Object.keys(run.metrics)) yield* stringTooLong(`metrics key "${key.slice(0, 40)}"`, key, MAX_NAME_LENGTH);
  for (const [index, note] of run.notes.entries()) yield* stringTooLong(`notes[${index}]`, note, MAX_STRING_LENGTH * 4);
  for (const [index, threshold] of run.thresholds.entries()) {
    yield* stringTooLong(`thresholds[${index}].metric`, threshold.metric, MAX_NAME_LENGTH);
    yield* stringTooLong(`thresholds[${index}].expression`, threshold.expression, MAX_STRING_LENGTH);
  }
  for (const [index, check] of run.checks.entries()) {
    yield* stringTooLong(`checks[${index}].name`, check.name, MAX_NAME_LENGTH);
    yield* stringTooLong(`checks[${index}].group`, check.group, MAX_STRING_LENGTH);
  }
  for (const [index, endpoint] of run.endpoints.entries()) yield* endpointSizeProblems(`endpoints[${index}]`, endpoint);
  yield* endpointSizeProblems("aggregate", run.aggregate);
}

function* endpointSizeProblems(path: string, endpoint: EndpointResult): Generator<InputErrorDetail> {
  yield* stringTooLong(`${path}.name`, endpoint.name, MAX_NAME_LENGTH);
  yield* stringTooLong(`${path}.fullName`, endpoint.fullName, MAX_STRING_LENGTH);
  yield* stringTooLong(`${path}.protocol`, endpoint.protocol, MAX_NAME_LENGTH);
  yield* stringTooLong(`${path}.method`, endpoint.method, MAX_NAME_LENGTH);
  yield* recordTooLarge(`${path}.metrics`, endpoint.metrics, MAX_ATTRIBUTES);
  // Distinct error messages can be many in a bad run; the cap only stops a pathological file.
  yield* recordTooLarge(`${path}.statusCodes`, endpoint.statusCodes ?? {}, MAX_DISTINCT_ERRORS);
  yield* recordTooLarge(`${path}.errors`, endpoint.errors ?? {}, MAX_DISTINCT_ERRORS);
  for (const message of Object.keys(endpoint.errors ?? {})) {
    yield* stringTooLong(`${path}.errors key`, message, MAX_STRING_LENGTH * 4);
  }
  yield* recordTooLarge(`${path}.latency.percentiles`, endpoint.latency.percentiles, MAX_ATTRIBUTES);
  if ((endpoint.timeline?.length ?? 0) > MAX_TIMELINE_POINTS) {
    yield { path: `${path}.timeline`, message: `${endpoint.timeline?.length} points; the limit is ${MAX_TIMELINE_POINTS}` };
  }
  if ((endpoint.histogram?.length ?? 0) > 10_000) {
    yield { path: `${path}.histogram`, message: `${endpoint.histogram?.length} buckets; the limit is 10000` };
  }
}

function* numberProblems(run: ParsedRun): Generator<InputErrorDetail> {
  yield* nonNegative("round", run.round);
  yield* int32("round", run.round);
  yield* int32("environment.git.pullRequest", run.environment.git.pullRequest);
  yield* int32("environment.host.cpus", run.environment.host.cpus);
  yield* nonNegative("durationSeconds", run.durationSeconds);
  yield* nonNegative("environment.git.pullRequest", run.environment.git.pullRequest);
  yield* nonNegative("environment.host.cpus", run.environment.host.cpus);
  yield* nonNegative("environment.host.memoryGb", run.environment.host.memoryGb);
  for (const [key, value] of Object.entries(run.environment.config)) {
    if (typeof value === "number") yield* finite(`environment.config.${key}`, value);
  }
  // Custom metrics may legitimately be negative (a score, a delta); they only need to be finite.
  for (const [key, metric] of Object.entries(run.metrics)) yield* finite(`metrics.${key}.value`, metric.value);
  for (const [index, check] of run.checks.entries()) {
    yield* nonNegative(`checks[${index}].passes`, check.passes);
    yield* nonNegative(`checks[${index}].fails`, check.fails);
  }
  for (const [index, endpoint] of run.endpoints.entries()) yield* endpointNumberProblems(`endpoints[${index}]`, endpoint);
  yield* endpointNumberProblems("aggregate", run.aggregate);
}

function* endpointNumberProblems(path: string, endpoint: EndpointResult): Generator<InputErrorDetail> {
  yield* nonNegative(`${path}.requests`, endpoint.requests);
  yield* nonNegative(`${path}.failures`, endpoint.failures);
  yield* int32(`${path}.requests`, endpoint.requests);
  yield* int32(`${path}.failures`, endpoint.failures);
  if (endpoint.requests !== null && endpoint.failures !== null && endpoint.failures > endpoint.requests) {
    yield { path: `${path}.failures`, message: `${endpoint.failures} failures of ${endpoint.requests} requests: more failures than requests` };
  }
  yield* nonNegative(`${path}.throughput`, endpoint.throughput);
  const { latency } = endpoint;
  yield* nonNegative(`${path}.latency.minMs`, latency.minMs);
  yield* nonNegative(`${path}.latency.meanMs`, latency.meanMs);
  yield* nonNegative(`${path}.latency.maxMs`, latency.maxMs);
  yield* nonNegative(`${path}.latency.stdDevMs`, latency.stdDevMs);
  for (const [key, value] of Object.entries(latency.percentiles)) {
    const percentile = Number(key);
    if (!(percentile >= 0 && percentile <= 100)) {
      yield { path: `${path}.latency.percentiles`, message: `"${key.slice(0, 40)}" is not a percentile between 0 and 100` };
    }
    yield* nonNegative(`${path}.latency.percentiles.${key.slice(0, 40)}`, value);
  }
  // A histogram's buckets and a timeline's points are many (a suite of 10,000 benchmarks has some 100,000):
  // each is looked at before any path is built for it.
  // Bucket i covers (upperMs[i-1], upperMs[i]]: an edge that repeats (or falls back) makes no bucket, and
  // pooling rounds or reading a percentile cannot place its count.
  let previousUpperMs = Number.NEGATIVE_INFINITY;
  for (const [index, bucket] of (endpoint.histogram ?? []).entries()) {
    const previous = previousUpperMs;
    const ascends = !(bucket.upperMs <= previous);
    if (ascends) previousUpperMs = bucket.upperMs;
    if (ascends && isNonNegative(bucket.upperMs) && isNonNegative(bucket.count)) continue;
    if (!ascends) {
      yield {
        path: `${path}.histogram[${index}].upperMs`,
        message: `${bucket.upperMs} ms repeats or falls below the bucket before it (${previous} ms): a histogram's upper edges ascend, each once`,
      };
    }
    yield* nonNegative(`${path}.histogram[${index}].upperMs`, bucket.upperMs);
    yield* nonNegative(`${path}.histogram[${index}].count`, bucket.count);
  }
  for (const [index, point] of (endpoint.timeline ?? []).entries()) {
    const { atMs, requestsPerSecond, failuresPerSecond, p50Ms, p95Ms, users } = point;
    const isTime = Number.isFinite(atMs) && atMs >= 0 && atMs <= MAX_EPOCH_MS;
    if (isTime && isNonNegative(requestsPerSecond) && isNonNegative(failuresPerSecond) && isNonNegative(p50Ms) && isNonNegative(p95Ms) && isNonNegative(users)) continue;
    const where = `${path}.timeline[${index}]`;
    if (!isTime) {
      yield { path: `${where}.at`, message: `${atMs} is not a time` };
    }
    yield* nonNegative(`${where}.requestsPerSecond`, requestsPerSecond);
    yield* nonNegative(`${where}.failuresPerSecond`, failuresPerSecond);
    yield* nonNegative(`${where}.p50Ms`, p50Ms);
    yield* nonNegative(`${where}.p95Ms`, p95Ms);
    yield* nonNegative(`${where}.users`, users);
  }
  for (const [code, count] of Object.entries(endpoint.statusCodes ?? {})) yield* nonNegative(`${path}.statusCodes.${code}`, count);
  for (const [index, count] of Object.values(endpoint.errors ?? {}).entries()) yield* nonNegative(`${path}.errors[${index}]`, count);
  for (const [key, metric] of Object.entries(endpoint.metrics)) yield* finite(`${path}.metrics.${key}.value`, metric.value);
}

function* stringTooLong(path: string, value: string | null, limit: number): Generator<InputErrorDetail> {
  if (value !== null && value.length > limit) {
    yield { path, message: `${value.length} characters; the limit is ${limit}` };
  }
}

function* recordTooLarge(path: string, record: object, limit: number): Generator<InputErrorDetail> {
  const size = Object.keys(record).length;
  if (size > limit) yield { path, message: `${size} entries; the limit is ${limit}` };
}

function* finite(path: string, value: number | null): Generator<InputErrorDetail> {
  if (value !== null && !Number.isFinite(value)) yield { path, message: `${value} is not a finite number` };
}

function* int32(path: string, value: number | null): Generator<InputErrorDetail> {
  if (value !== null && Number.isFinite(value) && Math.abs(value) > MAX_INT32) {
    yield { path, message: `${value} is beyond the largest count stored (${MAX_INT32})` };
  }
}

/** What nonNegative passes without a word. */
function isNonNegative(value: number | null): boolean {
  return value === null || (Number.isFinite(value) && value >= 0);
}

function* nonNegative(path: string, value: number | null): Generator<InputErrorDetail> {
  if (value === null) return;
  if (!Number.isFinite(value)) yield { path, message: `${value} is not a finite number` };
  else if (value < 0) yield { path, message: `${value} is negative` };
}
