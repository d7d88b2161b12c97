/**
 * Criterion.rs's own files under `target/criterion/<benchmark>/new/`. Built from Criterion.rs's source,
 * as no Criterion run can be made here: bheisler/criterion.rs src/analysis/mod.rs (`common` saves
 * `new/sample.json`, `new/estimates.json` and `new/benchmark.json` with serde_json), src/lib.rs
 * (`SavedSample {sampling_mode, iters, times}`), src/report.rs (`BenchmarkId {group_id, function_id,
 * value_str, throughput, full_id, directory_name, title}`, full_id = group/function/value),
 * src/estimate.rs (`Estimates {mean, median, median_abs_dev, slope, std_dev}`, each `{confidence_interval
 * {confidence_level, lower_bound, upper_bound}, point_estimate, standard_error}`; slope is null with flat
 * sampling). All times are ns (the default WallTime measurement). serde_json writes NaN as null.
 *
 * One benchmark is the files of one folder: sample.json (each sample's `times[i]` ns over `iters[i]`
 * iterations: `times[i] / iters[i]` is one sample's time per iteration), estimates.json (statistics of
 * those per-iteration times) and benchmark.json (the name, nothing measured). How they are sent and
 * matched: see `parseCriterionSet`.
 *
 * Kept: name = full_id; samples from sample.json (exact percentiles and histogram), else the estimates'
 * mean, median (p50) and standard deviation (no sample count); the slope (Criterion's headline time when
 * sampling is linear) as the metric `slope` in ns/iter; a declared throughput as `B/s` (Bytes,
 * BytesDecimal) or `elem/s` (Elements) per second of Criterion's typical time (the slope, else the mean),
 * as Criterion prints it; ops/s = iterations per second of the mean time.
 * Checked: estimates.json's mean must be the mean of sample.json's per-iteration times (Criterion
 * computes it from them), so files of two runs or two benchmarks are never paired silently.
 * Dropped: the bootstrap confidence intervals and standard errors, median_abs_dev, tukey.json, the
 * `base/` and `change/` folders (a previous run and Criterion's own comparison), the sampling mode.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { CustomMetric, EndpointResult, ParsedRun } from "../../run";
import { AGGREGATE_NAME, BENCHMARK_PROTOCOL, emptyRun } from "../../run";
import { benchmarkMetric, benchmarkResult, benchmarkRun, toMs } from "../benchmark";
import { sourceOf, type DetectedFile } from "../uploaded-file";
import { parseWire } from "../wire";

const estimate = z.object({
  confidence_interval: z
    .object({
      confidence_level: z.number().nullable(),
      lower_bound: z.number().nullable(),
      upper_bound: z.number().nullable(),
    })
    .optional(),
  point_estimate: z.number().nullable(),
  standard_error: z.number().nullable().optional(),
});

const estimatesSchema = z.object({
  mean: estimate,
  median: estimate,
  median_abs_dev: estimate.optional(),
  slope: estimate.nullable().optional(),
  std_dev: estimate,
});
type Estimates = z.infer<typeof estimatesSchema>;

const benchmarkIdSchema = z.object({
  group_id: z.string(),
  function_id: z.string().nullable().optional(),
  value_str: z.string().nullable().optional(),
  // Throughput::Bytes(n) | BytesDecimal(n) | Elements(n), serde's externally tagged enum: {"Bytes": 65536}.
  throughput: z.record(z.string(), z.unknown()).nullable().optional(),
  full_id: z.string().min(1),
  directory_name: z.string(),
  title: z.string().optional(),
});
type BenchmarkId = z.infer<typeof benchmarkIdSchema>;

const sampleSchema = z
  .object({
    sampling_mode: z.enum(["Linear", "Flat"]),
    iters: z.array(z.number().positive("an iteration count must be > 0")),
    times: z.array(z.number().nonnegative("a time must be ≥ 0")),
  })
  .refine((sample) => sample.iters.length === sample.times.length, {
    message: "iters and times must be as long as each other (one pair per sample)",
    path: ["times"],
  })
  .refine((sample) => sample.iters.length > 0, { message: "no samples", path: ["iters"] });

type CriterionFileKind = "estimates" | "benchmark" | "sample";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Which of Criterion's files a JSON object is, by its keys; null for none. */
export function criterionFileKindOf(value: unknown): CriterionFileKind | null {
  if (!isRecord(value)) return null;
  const isEstimate = (entry: unknown) => isRecord(entry) && "point_estimate" in entry;
  if (isEstimate(value.mean) && isEstimate(value.median) && isEstimate(value.std_dev)) return "estimates";
  if (typeof value.group_id === "string" && "full_id" in value && "directory_name" in value) return "benchmark";
  if (typeof value.sampling_mode === "string" && Array.isArray(value.iters) && Array.isArray(value.times))
    return "sample";
  return null;
}

export function isCriterionJson(value: Record<string, unknown>): boolean {
  return criterionFileKindOf(value) !== null;
}

/** One benchmark's files, as sent. */
interface BenchmarkFiles {
  folder: string;
  estimates?: { source: string; document: unknown };
  benchmark?: { source: string; document: unknown };
  sample?: { source: string; document: unknown };
}

/** One file alone: an estimates.json or sample.json names no benchmark (`?endpoint=` names it). */
export function parseCriterionJson(document: unknown): ParsedRun {
  return parseCriterionSet([{ name: null, text: "", format: "criterion-json", document }]);
}

/**
 * Several of Criterion's files, one run. Files are matched into benchmarks by the folder in their
 * upload name: `fib/iterative/20/new/estimates.json` and `fib/iterative/20/new/sample.json` are one
 * benchmark (curl sends a path with `-F "file=@$f;filename=$f"`). Files with no folder are one
 * benchmark. A folder without benchmark.json names no benchmark, which is allowed only when it is the
 * only one (then `?endpoint=` names it, as for a single estimates.json).
 */
export function parseCriterionSet(files: readonly DetectedFile[]): ParsedRun {
  const folders = new Map<string, BenchmarkFiles>();
  for (const [index, file] of files.entries()) {
    const source = sourceOf(file, index);
    const kind = criterionFileKindOf(file.document);
    if (kind === null) {
      throw new InputError("malformed", `${source} is not one of Criterion's files`, [
        {
          path: source,
          message: "expected benchmark.json, estimates.json or sample.json from target/criterion/…/new/",
        },
      ]);
    }
    const folder = folderOf(file.name);
    const group = folders.get(folder) ?? { folder };
    const earlier = group[kind];
    if (earlier) {
      throw new InputError(
        "malformed",
        `Two Criterion ${kind}.json files for one benchmark: ${earlier.source} and ${source}`,
        [
          {
            path: source,
            message: `${earlier.source} is the ${kind}.json of the same folder; send each benchmark's files with their folder in the name (-F "file=@$f;filename=$f")`,
          },
        ],
      );
    }
    group[kind] = { source, document: file.document };
    folders.set(folder, group);
  }
  const groups = [...folders.values()];
  const unnamed = groups.filter((group) => !group.benchmark);
  if (unnamed.length > 0 && groups.length > 1) {
    const sources = unnamed.flatMap((group) => [group.estimates, group.sample]).filter((file) => file !== undefined);
    throw new InputError(
      "malformed",
      "Criterion files without their benchmark.json cannot be told apart from the other benchmarks",
      [
        ...sources.map((file) => ({
          path: file.source,
          message: "no benchmark.json in this folder names its benchmark",
        })),
      ],
    );
  }
  const [only] = groups;
  if (only && !only.benchmark) return unnamedRun(resultOf(only, AGGREGATE_NAME));
  return benchmarkRun(
    "criterion-json",
    "criterion",
    groups.map((group) => {
      const id = parseWire(
        benchmarkIdSchema,
        group.benchmark?.document,
        "Criterion benchmark.json",
        `${group.benchmark?.source ?? ""}: `,
      );
      return resultOf(group, id.full_id, id);
    }),
  );
}

/** The folder part of an upload name: `fib/iterative/20/new/estimates.json` → `fib/iterative/20/new`. */
function folderOf(name: string | null): string {
  const path = (name ?? "").replaceAll("\\", "/");
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

function resultOf(group: BenchmarkFiles, name: string, id?: BenchmarkId): EndpointResult {
  if (!group.estimates && !group.sample) {
    const source = group.benchmark?.source ?? group.folder;
    throw new InputError("malformed", `${source} names benchmark "${name}" but nothing measured it was sent`, [
      { path: source, message: "send its estimates.json and sample.json (same folder) with it" },
    ]);
  }
  const estimates = group.estimates
    ? parseWire(estimatesSchema, group.estimates.document, "Criterion estimates.json", `${group.estimates.source}: `)
    : null;
  const sample = group.sample
    ? parseWire(sampleSchema, group.sample.document, "Criterion sample.json", `${group.sample.source}: `)
    : null;
  const perIterationNs = sample ? sample.times.map((time, index) => time / (sample.iters[index] ?? Number.NaN)) : null;
  if (estimates && perIterationNs && group.estimates && group.sample) {
    checkSameRun(estimates, perIterationNs, group.estimates.source, group.sample.source);
  }
  const metrics: Record<string, CustomMetric> = {};
  const slopeNs = estimates?.slope?.point_estimate ?? null;
  if (slopeNs !== null) metrics.slope = benchmarkMetric(slopeNs, "ns/iter");
  const typicalNs = slopeNs ?? estimates?.mean.point_estimate ?? (perIterationNs ? meanOf(perIterationNs) : null);
  Object.assign(metrics, throughputMetricsOf(id, typicalNs));
  if (perIterationNs) return benchmarkResult({ name, samplesMs: perIterationNs.map((ns) => toMs(ns, "ns")), metrics });
  const msOf = (ns: number | null | undefined) => (ns === null || ns === undefined ? null : toMs(ns, "ns"));
  const median = msOf(estimates?.median.point_estimate);
  return benchmarkResult({
    name,
    summary: {
      meanMs: msOf(estimates?.mean.point_estimate),
      stdDevMs: msOf(estimates?.std_dev.point_estimate),
      percentiles: median === null ? {} : { "50": median },
      samples: null,
    },
    metrics,
  });
}

function meanOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Criterion's mean estimate is the mean of the per-iteration times in sample.json (analysis/mod.rs
 * `estimates`): the same to rounding, or the two files are not of one run.
 */
function checkSameRun(
  estimates: Estimates,
  perIterationNs: readonly number[],
  estimatesSource: string,
  sampleSource: string,
): void {
  const stated = estimates.mean.point_estimate;
  if (stated === null) return;
  const computed = meanOf(perIterationNs);
  if (Math.abs(computed - stated) <= 1e-9 * Math.max(Math.abs(stated), Math.abs(computed))) return;
  const why = `its mean is ${stated} ns; the mean of ${sampleSource}'s times per iteration is ${computed} ns`;
  throw new InputError(
    "malformed",
    `${estimatesSource} and ${sampleSource} are not of the same benchmark run (${why})`,
    [{ path: `${estimatesSource}: mean.point_estimate`, message: why }],
  );
}

/** A declared throughput per iteration, per second of Criterion's typical time (ns). */
function throughputMetricsOf(id: BenchmarkId | undefined, typicalNs: number | null): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  if (!id?.throughput || typicalNs === null || !(typicalNs > 0)) return metrics;
  const perSecond = (amount: unknown) =>
    typeof amount === "number" && amount >= 0 ? (amount * 1e9) / typicalNs : null;
  const bytes = perSecond(id.throughput.Bytes ?? id.throughput.BytesDecimal);
  const elements = perSecond(id.throughput.Elements);
  if (bytes !== null) metrics["B/s"] = benchmarkMetric(bytes, "B/s");
  if (elements !== null) metrics["elem/s"] = benchmarkMetric(elements, "elem/s");
  return metrics;
}

/**
 * A single benchmark's files without its benchmark.json: its numbers are the run's aggregate, which
 * `?endpoint=<name>` makes the named benchmark (unnamedTarget in ./index.ts).
 */
function unnamedRun(result: EndpointResult): ParsedRun {
  const run = emptyRun("criterion-json", "criterion");
  run.aggregate = { ...result, name: AGGREGATE_NAME, protocol: BENCHMARK_PROTOCOL };
  run.notes.push(
    "Criterion's estimates.json and sample.json name no benchmark: name it with ?endpoint=<full_id>, or send its benchmark.json with them",
  );
  return run;
}
