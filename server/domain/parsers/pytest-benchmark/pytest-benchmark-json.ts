/**
 * pytest-benchmark's JSON (`--benchmark-json=<file>`, and the files `--benchmark-save` keeps under
 * .benchmarks/), read into the benchmarks pytest-benchmark-run.ts builds a run from. What is kept and
 * dropped: pytest-benchmark.ts.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { CustomMetric, ParsedRun } from "../../run";
import { toMs } from "../benchmark";
import { buildPytestRun, type PytestBenchmark } from "./pytest-benchmark-run";
import { parseWire } from "../wire";
import { MAX_BENCHMARKS, benchmarkLimit } from "../validate";

const seconds = z.number().refine((value) => Number.isFinite(value) && value >= 0, "expected seconds (a number ≥ 0)");

const statsSchema = z
  .object({
    min: seconds,
    max: seconds,
    mean: seconds,
    stddev: seconds,
    median: seconds,
    rounds: z.number().int().positive(),
    iterations: z.number().int().positive().optional(),
    ops: seconds.optional(),
    /** Every round's time per iteration (seconds); `--benchmark-save` keeps it only with --benchmark-save-data. */
    data: z.array(seconds).optional(),
  })
  .loose();

const benchmarkSchema = z
  .object({
    group: z.string().nullable().optional(),
    name: z.string().min(1),
    fullname: z.string().min(1).optional(),
    extra_info: z.record(z.string(), z.unknown()).optional(),
    stats: statsSchema,
  })
  .loose();

const documentSchema = z
  .object({
    machine_info: z
      .object({
        system: z.string().optional(),
        machine: z.string().optional(),
        python_implementation: z.string().optional(),
        python_version: z.string().optional(),
        cpu: z.object({ brand: z.string().optional(), brand_raw: z.string().optional() }).loose().optional(),
      })
      .loose(),
    commit_info: z
      .object({ id: z.string().optional(), branch: z.string().nullable().optional(), dirty: z.boolean().optional() })
      .loose()
      .optional(),
    benchmarks: z.array(benchmarkSchema),
    datetime: z.string().optional(),
    version: z.string().optional(),
  })
  .loose();

type PytestDocument = z.infer<typeof documentSchema>;
type Benchmark = z.infer<typeof benchmarkSchema>;

/** How far the mean of `stats.data` may be from `stats.mean` (both float sums of the same rounds). */
const MEAN_RELATIVE_TOLERANCE = 1e-9;

export function parsePytestBenchmark(document: unknown): ParsedRun {
  const file = parseWire(documentSchema, document, "pytest-benchmark JSON");
  if (file.benchmarks.length === 0) {
    throw new InputError("malformed", "pytest-benchmark JSON: the benchmarks list is empty", [
      {
        path: "benchmarks",
        message: "expected at least one benchmark (did every benchmark test fail or get skipped?)",
      },
    ]);
  }
  benchmarkLimit(file.benchmarks.length, `benchmarks[${MAX_BENCHMARKS}]`);
  const run = buildPytestRun(
    "pytest-benchmark",
    file.benchmarks.map((benchmark, index) => benchmarkOf(benchmark, `benchmarks[${index}]`)),
  );
  run.toolVersion = file.version ?? null;
  run.startedAt = startedAtOf(file.datetime);
  run.environment.testbed = testbedOf(file.machine_info);
  const { attributes, git } = run.environment;
  if (file.machine_info.python_implementation)
    attributes.python_implementation = file.machine_info.python_implementation;
  if (file.machine_info.python_version) attributes.python_version = file.machine_info.python_version;
  const commit = file.commit_info;
  if (commit?.id) git.commit = commit.id;
  // pytest-benchmark writes "(unknown)" when git cannot name the branch (a detached HEAD).
  if (commit?.branch && commit.branch !== "(unknown)") git.branch = commit.branch;
  if (commit?.dirty !== undefined) attributes.git_dirty = String(commit.dirty);
  if (file.benchmarks.some((benchmark) => benchmark.stats.data === undefined)) {
    run.notes.push(
      "Some benchmarks have no per-round times (stats.data; --benchmark-save keeps them only with --benchmark-save-data): their min, max, mean, median and stddev are pytest-benchmark's own, with no percentiles beyond the median.",
    );
  }
  return run;
}

function benchmarkOf(benchmark: Benchmark, where: string): PytestBenchmark {
  const { stats } = benchmark;
  const base = {
    group: benchmark.group ?? null,
    name: benchmark.name,
    fullName: benchmark.fullname ?? null,
    where,
    opsPerSecond: stats.ops ?? null,
    metrics: extraInfoMetrics(benchmark.extra_info),
  };
  if (stats.data === undefined) {
    return {
      ...base,
      summary: {
        meanMs: toMs(stats.mean, "s"),
        minMs: toMs(stats.min, "s"),
        maxMs: toMs(stats.max, "s"),
        stdDevMs: stats.rounds >= 2 ? toMs(stats.stddev, "s") : null,
        percentiles: { "50": toMs(stats.median, "s") },
        samples: stats.rounds,
      },
    };
  }
  checkRounds(stats, `${where}.stats`);
  return { ...base, samplesMs: stats.data.map((value) => toMs(value, "s")) };
}

/**
 * `stats.data` holds each round's time divided by its iterations (pytest-benchmark's runner records
 * `duration / iterations`), so its mean is `stats.mean`: checked, since the samples are read as times
 * per operation. Rounds kept as totals (a file edited, or another writer) would be off by the iterations.
 */
function checkRounds(stats: Benchmark["stats"], where: string): void {
  const data = stats.data ?? [];
  if (data.length !== stats.rounds) {
    throw new InputError(
      "malformed",
      `pytest-benchmark JSON: ${where}.data holds ${data.length} rounds, but rounds says ${stats.rounds}`,
      [{ path: `${where}.data`, message: `expected ${stats.rounds} per-round times` }],
    );
  }
  let sum = 0;
  for (const value of data) sum += value;
  const mean = sum / data.length;
  if (Math.abs(mean - stats.mean) > Math.abs(stats.mean) * MEAN_RELATIVE_TOLERANCE) {
    throw new InputError(
      "malformed",
      `pytest-benchmark JSON: the mean of ${where}.data (${mean} s) is not ${where}.mean (${stats.mean} s)`,
      [{ path: `${where}.data`, message: "expected each round's time per iteration, whose mean is stats.mean" }],
    );
  }
}

/** `benchmark.extra_info[key] = value`: numbers are the test's own figures, direction unknown. */
function extraInfoMetrics(extraInfo: Record<string, unknown> | undefined): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  for (const [key, value] of Object.entries(extraInfo ?? {})) {
    if (typeof value === "number" && Number.isFinite(value)) metrics[key] = { value, unit: null, better: null };
  }
  return metrics;
}

/**
 * `platform.system()`, `platform.machine()` and py-cpuinfo's brand (`brand_raw` in py-cpuinfo 5 and
 * later), e.g. "Linux x86_64 · AMD EPYC"; never `node`, the host name. Null when none is stated.
 */
function testbedOf(machine: PytestDocument["machine_info"]): string | null {
  const platform = [machine.system, machine.machine].filter((part) => part !== undefined && part !== "").join(" ");
  const brand = machine.cpu?.brand ?? machine.cpu?.brand_raw ?? "";
  const parts = [platform, brand].filter((part) => part !== "");
  return parts.length === 0 ? null : parts.join(" · ");
}

/**
 * `datetime`: when pytest-benchmark wrote the file, at the end of the session (the file has no start
 * time). 3.x writes UTC without an offset (`datetime.utcnow().isoformat()`), later versions with one.
 */
function startedAtOf(datetime: string | undefined): string | null {
  const match =
    datetime === undefined
      ? null
      : /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(datetime);
  if (!match) return null;
  const fraction = (match[2] ?? "").slice(0, 4);
  const time = Date.parse(`${match[1]}${fraction}${match[3] ?? "Z"}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
