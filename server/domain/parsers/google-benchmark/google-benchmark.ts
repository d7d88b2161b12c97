/**
 * Google Benchmark (github.com/google/benchmark; checked on 1.7.1): its JSON
 * (`--benchmark_out=gbench.json --benchmark_out_format=json`) and its console table (the default
 * output, stderr included). Both are read into the same rows and built into a run by
 * google-benchmark-run.ts, so the two outputs of one run give the same benchmark names and testbed.
 *
 * Kept: one benchmark per instance (`run_name`: `BM_Sort/1000`, `BM_x/threads:2`), its repetitions
 * (`run_type: "iteration"` rows) as samples of time per operation = real time in the row's unit, the mean
 * CPU time as the metric `cpu_time` (ms, lower is better), `items_per_second` and `bytes_per_second`
 * (higher is better) and user counters (direction unknown unless the name says) as their mean over the
 * repetitions, failed repetitions (SkipWithError) as failures; a Complexity() fit's BigO and RMS rows as
 * run metrics (google-benchmark-run.ts); the date as the start; the testbed from the CPU count, clock and
 * caches (never the host name); library_build_type as an attribute, with a note when it is a debug build.
 * Aggregate rows are not samples: with the repetitions present they are only checked against them.
 * Dropped: the host name, executable, load average, iterations per repetition, labels (SetLabel), a cv
 * row's figures (they follow from the samples), statistics a benchmark added with ComputeStatistics.
 */
export { parseGoogleBenchmarkJson } from "./google-benchmark-json";
export { parseGoogleBenchmarkConsole } from "./google-benchmark-console";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{context: {num_cpus, mhz_per_cpu, library_build_type…}, benchmarks: [...]}`. */
export function isGoogleBenchmarkJson(value: Record<string, unknown>): boolean {
  const { context } = value;
  return (
    isRecord(context) &&
    Array.isArray(value.benchmarks) &&
    ("mhz_per_cpu" in context || "num_cpus" in context || "library_build_type" in context)
  );
}

/** `Run on (2 X 2596.14 MHz CPU s)` in the context lines, or the table's header when stdout came alone. */
export function isGoogleBenchmarkConsole(start: string): boolean {
  const head = start.slice(0, 64 * 1024);
  return /^Run on \(\d+ X \d+(?:\.\d+)? MHz CPU ?s?\)$/m.test(head) || /^Benchmark +Time +CPU +Iterations/m.test(head);
}
