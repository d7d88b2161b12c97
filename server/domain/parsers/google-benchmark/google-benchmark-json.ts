/**
 * Google Benchmark's JSON (`--benchmark_out=<file> --benchmark_out_format=json`, or
 * `--benchmark_format=json` on stdout), read into the rows google-benchmark-run.ts builds a run from.
 * What is kept and dropped: google-benchmark.ts.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { ParsedRun } from "../../run";
import { isTimeUnit, type TimeUnit } from "../benchmark";
import {
  buildGbenchRun,
  DEFAULT_AGGREGATES,
  gbenchDateOf,
  type GbenchContext,
  type GbenchRow,
} from "./google-benchmark-run";
import { parseWire } from "../wire";

const finite = z.number().refine(Number.isFinite, "expected a finite number");
const nonNegative = finite.refine((value) => value >= 0, "expected a number ≥ 0");

const contextSchema = z
  .object({
    date: z.string().optional(),
    num_cpus: z.number().int().positive().optional(),
    mhz_per_cpu: z.number().positive().optional(),
    cpu_scaling_enabled: z.boolean().optional(),
    caches: z
      .array(
        z
          .object({ type: z.string(), level: z.number().int().nonnegative(), size: z.number().int().nonnegative() })
          .loose(),
      )
      .optional(),
    library_build_type: z.string().optional(),
    library_version: z.string().optional(),
  })
  .loose();

/** One row of `benchmarks`; its other numeric keys are the benchmark's counters (user counters, items_per_second…). */
const rowSchema = z
  .object({
    name: z.string().min(1),
    run_name: z.string().min(1).optional(),
    run_type: z.enum(["iteration", "aggregate"]).optional(),
    aggregate_name: z.string().optional(),
    aggregate_unit: z.string().optional(),
    iterations: nonNegative.optional(),
    real_time: nonNegative.optional(),
    cpu_time: nonNegative.optional(),
    time_unit: z.string().optional(),
    error_occurred: z.boolean().optional(),
    skipped: z.union([z.boolean(), z.number()]).optional(),
    big_o: z.string().optional(),
    real_coefficient: finite.optional(),
    cpu_coefficient: finite.optional(),
    rms: finite.optional(),
  })
  .loose();

const documentSchema = z.object({ context: contextSchema, benchmarks: z.array(rowSchema) });
type Row = z.infer<typeof rowSchema>;

/** Keys of a row that are not counters. */
const ROW_KEYS = new Set([
  "name",
  "family_index",
  "per_family_instance_index",
  "run_name",
  "run_type",
  "repetitions",
  "repetition_index",
  "threads",
  "iterations",
  "real_time",
  "cpu_time",
  "time_unit",
  "aggregate_name",
  "aggregate_unit",
  "error_occurred",
  "error_message",
  "skipped",
  "skip_message",
  "big_o",
  "real_coefficient",
  "cpu_coefficient",
  "rms",
  "label",
]);

export function parseGoogleBenchmarkJson(document: unknown): ParsedRun {
  const file = parseWire(documentSchema, document, "Google Benchmark JSON");
  if (file.benchmarks.length === 0) {
    throw new InputError("malformed", "Google Benchmark JSON: the benchmarks list is empty", [
      { path: "benchmarks", message: "expected at least one benchmark row" },
    ]);
  }
  const rows = file.benchmarks.map((row, index) => rowOf(row, `benchmarks[${index}]`));
  // JSON holds the doubles Google Benchmark computed: its mean agrees with the repetitions to rounding.
  return buildGbenchRun("google-benchmark-json", rows, contextOf(file.context), (mean) => Math.abs(mean) * 1e-9);
}

function contextOf(context: z.infer<typeof contextSchema>): GbenchContext {
  return {
    startedAt: gbenchDateOf(context.date),
    numCpus: context.num_cpus ?? null,
    mhzPerCpu: context.mhz_per_cpu ?? null,
    caches: (context.caches ?? []).map((cache) => ({ level: cache.level, type: cache.type, sizeBytes: cache.size })),
    libraryBuildType: context.library_build_type ?? null,
    cpuScalingEnabled: context.cpu_scaling_enabled ?? null,
    libraryVersion: context.library_version ?? null,
  };
}

function rowOf(row: Row, where: string): GbenchRow {
  const runName = row.run_name ?? row.name;
  if (row.aggregate_name === "BigO" || row.big_o !== undefined) {
    const unit = timeUnitOf(row, where);
    if (
      row.real_coefficient === undefined ||
      row.cpu_coefficient === undefined ||
      unit === null ||
      row.big_o === undefined
    ) {
      throw malformed(where, "a BigO row needs real_coefficient, cpu_coefficient, big_o and time_unit");
    }
    return {
      kind: "complexity",
      name: row.name,
      where,
      bigO: { realCoefficient: row.real_coefficient, cpuCoefficient: row.cpu_coefficient, unit, complexity: row.big_o },
      rms: null,
    };
  }
  if (row.aggregate_name === "RMS" || row.rms !== undefined) {
    if (row.rms === undefined) throw malformed(where, "an RMS row needs rms");
    return { kind: "complexity", name: row.name, where, bigO: null, rms: row.rms };
  }
  const aggregate = aggregateOf(row);
  if (aggregate !== null) {
    const unit = aggregate === "cv" ? null : timeUnitOf(row, where);
    return {
      kind: "aggregate",
      runName: row.run_name ?? row.name.slice(0, row.name.length - aggregate.length - 1),
      where,
      aggregate,
      realTime: requiredTime(row.real_time, `${where}.real_time`),
      cpuTime: requiredTime(row.cpu_time, `${where}.cpu_time`),
      unit,
      repetitions: row.iterations ?? null,
      counters: countersOf(row),
    };
  }
  const failed = row.error_occurred === true;
  if (failed || (row.skipped !== undefined && row.skipped !== false && row.skipped !== 0)) {
    return { kind: "iteration", runName, where, realTime: null, cpuTime: null, unit: null, counters: {}, failed };
  }
  return {
    kind: "iteration",
    runName,
    where,
    realTime: requiredTime(row.real_time, `${where}.real_time`),
    cpuTime: requiredTime(row.cpu_time, `${where}.cpu_time`),
    unit: timeUnitOf(row, where) ?? fail(`${where}.time_unit`, "expected ns, us, ms or s"),
    counters: countersOf(row),
    failed: false,
  };
}

/**
 * The statistic an aggregate row holds: `aggregate_name` (1.5 and later), or, in older files without
 * `run_type`, the suffix Google Benchmark appends to the name (`BM_x_mean`).
 */
function aggregateOf(row: Row): string | null {
  if (row.run_type === "aggregate")
    return row.aggregate_name ?? fail("aggregate_name", `"${row.name}" is an aggregate row without aggregate_name`);
  if (row.run_type === "iteration") return null;
  return DEFAULT_AGGREGATES.find((name) => row.name.endsWith(`_${name}`)) ?? null;
}

function timeUnitOf(row: Row, where: string): TimeUnit | null {
  if (row.time_unit === undefined) return null;
  if (!isTimeUnit(row.time_unit))
    throw malformed(`${where}.time_unit`, `"${row.time_unit.slice(0, 20)}" is not ns, us, ms or s`);
  return row.time_unit;
}

function requiredTime(value: number | undefined, path: string): number {
  return value ?? fail(path, "expected a time (a number ≥ 0)");
}

/** Every other numeric key of the row (Google Benchmark writes counters as numbers; other keys are not counters). */
function countersOf(row: Row): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const [key, value] of Object.entries(row)) {
    if (!ROW_KEYS.has(key) && typeof value === "number" && Number.isFinite(value)) counters[key] = value;
  }
  return counters;
}

function malformed(path: string, message: string): InputError {
  return new InputError("malformed", `Not a valid Google Benchmark JSON (${path}: ${message})`, [{ path, message }]);
}

function fail(path: string, message: string): never {
  throw malformed(path, message);
}
